/**
 * The JQL syntax tree: what a query says, before any field or value is looked up. Positions are
 * 0-based offsets into the query text, kept so that errors can say where they are.
 */

export type Operator = "=" | "!=" | "~" | "!~" | ">" | ">=" | "<" | "<=" | "in" | "not in" | "is" | "is not";

/** A single value: a quoted string or an unquoted word (numbers are words too). */
export interface ValueOperand {
  kind: "value";
  text: string;
  quoted: boolean;
  pos: number;
}

/** `EMPTY` or `NULL`. */
export interface EmptyOperand {
  kind: "empty";
  pos: number;
}

/** A function call such as `currentUser()` or `startOfDay(-1)`; arguments are plain strings. */
export interface FunctionOperand {
  kind: "function";
  name: string;
  args: string[];
  pos: number;
}

/** `(a, b, c)`: each item is a value, EMPTY or a function. */
export interface ListOperand {
  kind: "list";
  items: (ValueOperand | EmptyOperand | FunctionOperand)[];
  pos: number;
}

export type Operand = ValueOperand | EmptyOperand | FunctionOperand | ListOperand;

export interface Clause {
  kind: "clause";
  /** The field name as written (its case and alias are kept for error messages). */
  field: string;
  fieldPos: number;
  operator: Operator;
  operand: Operand;
}

/** The history operators, as written (`WAS NOT IN` is "was not in"). */
export type HistoryOperator = "was" | "was not" | "was in" | "was not in" | "changed";

/** A history predicate's keyword: WAS takes the first five, CHANGED all seven. */
export type PredicateKind = "after" | "before" | "on" | "during" | "by" | "from" | "to";

export interface HistoryPredicate {
  kind: PredicateKind;
  operand: Operand;
  pos: number;
}

/** `status WAS "In Progress" BY currentUser()`, `assignee CHANGED FROM EMPTY AFTER -1w`: a search of history. */
export interface HistoryClause {
  kind: "history";
  field: string;
  fieldPos: number;
  operator: HistoryOperator;
  /** The value(s) a WAS clause looks for; null for CHANGED. */
  operand: Operand | null;
  predicates: HistoryPredicate[];
}

export type Node =
  | Clause
  | HistoryClause
  | { kind: "and"; children: Node[] }
  | { kind: "or"; children: Node[] }
  | { kind: "not"; child: Node };

export interface SortKey {
  field: string;
  pos: number;
  direction: "asc" | "desc" | undefined;
}

export interface Query {
  /** The search restriction; null when the query has none (an unbounded query). */
  where: Node | null;
  orderBy: SortKey[];
}

/** The operator that means "not this one" (used to push NOT down to the clauses, as Jira does). */
export const NEGATED: Record<Operator, Operator> = {
  "=": "!=",
  "!=": "=",
  "~": "!~",
  "!~": "~",
  ">": "<=",
  "<=": ">",
  "<": ">=",
  ">=": "<",
  in: "not in",
  "not in": "in",
  is: "is not",
  "is not": "is",
};
