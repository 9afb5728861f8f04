/**
 * JQL parser: recursive descent over the lexer's tokens, with Jira's precedence (NOT binds tighter
 * than AND, AND tighter than OR), parentheses, lists, functions and ORDER BY. Keywords are read in
 * any case. A query it cannot read is a 400 in Jira's words, naming where it broke.
 *
 *   query   := [or] [ORDER BY sort ("," sort)*]
 *   or      := and ((OR | "|" | "||") and)*
 *   and     := not ((AND | "&" | "&&") not)*
 *   not     := (NOT | "!") not | "(" or ")" | clause
 *   clause  := field operator operand | field history
 *   history := WAS [NOT] [IN] operand predicate* | CHANGED predicate*
 *   predicate := (AFTER | BEFORE | ON | DURING | BY) operand, and FROM or TO operand after CHANGED
 *   operand := EMPTY | NULL | value | function | "(" item ("," item)* ")"
 */
import type {
  Clause,
  EmptyOperand,
  FunctionOperand,
  HistoryClause,
  HistoryOperator,
  HistoryPredicate,
  Node,
  Operand,
  Operator,
  PredicateKind,
  Query,
  SortKey,
  ValueOperand,
} from "./ast.ts";
import { jqlError, syntax } from "./errors.ts";
import { KEYWORDS, type Token, tokenize } from "./lexer.ts";

const WAS_PREDICATES = new Set<string>(["after", "before", "on", "during", "by"]);
const CHANGED_PREDICATES = new Set<string>([...WAS_PREDICATES, "from", "to"]);

/** A word that is a history predicate (a keyword after WAS or CHANGED). */
const isPredicate = (token: Token) =>
  token.kind === "word" && CHANGED_PREDICATES.has(token.text.toLowerCase());

/** Deeper nesting than this is refused rather than risking the call stack. */
const MAX_DEPTH = 100;

export function parseJql(text: string): Query {
  return new Parser(text).query();
}

class Parser {
  private tokens: Token[];
  private at = 0;
  private depth = 0;

  constructor(private text: string) {
    this.tokens = tokenize(text);
  }

  query(): Query {
    const where = this.peek().kind === "end" || this.isWord(this.peek(), "order") ? null : this.or();
    const orderBy: SortKey[] = [];
    if (this.isWord(this.peek(), "order")) {
      this.take();
      const by = this.take();
      if (by.kind === "end") this.fail(syntax.byAtEnd());
      if (!this.isWord(by, "by")) this.fail(syntax.by(this.text, by.pos, by.text));
      for (;;) {
        orderBy.push(this.sortKey());
        const next = this.take();
        if (next.kind === "end") break;
        if (next.kind !== "comma") this.fail(syntax.sortEnd(this.text, next.pos, next.text));
      }
    }
    const last = this.peek();
    if (!isPredicate(last)) this.refuseReserved(last); // a misplaced predicate is told where it stands

    if (last.kind !== "end") this.fail(syntax.andOr(this.text, last.pos, last.text));
    return { where, orderBy };
  }

  private sortKey(): SortKey {
    const { field, pos } = this.field();
    const next = this.peek();
    let direction: SortKey["direction"];
    if (this.isWord(next, "asc") || this.isWord(next, "desc")) {
      this.take();
      direction = next.text.toLowerCase() as "asc" | "desc";
    }
    return { field, pos, direction };
  }

  private or(): Node {
    const children = [this.and()];
    while (this.isWord(this.peek(), "or") || this.isSymbol(this.peek(), "|", "||")) {
      this.take();
      children.push(this.and());
    }
    return children.length === 1 ? children[0]! : { kind: "or", children };
  }

  private and(): Node {
    const children = [this.not()];
    while (this.isWord(this.peek(), "and") || this.isSymbol(this.peek(), "&", "&&")) {
      this.take();
      children.push(this.not());
    }
    return children.length === 1 ? children[0]! : { kind: "and", children };
  }

  private not(): Node {
    if (++this.depth > MAX_DEPTH) this.fail(`Error in the JQL Query: The query is nested too deeply.`);
    try {
      const token = this.peek();
      if (this.isWord(token, "not") || this.isSymbol(token, "!")) {
        this.take();
        return { kind: "not", child: this.not() };
      }
      if (token.kind === "lparen") {
        this.take();
        const inner = this.or();
        const close = this.takeAfterClause();
        if (close.kind === "end") this.fail(syntax.closeAtEnd());
        if (close.kind !== "rparen") this.fail(syntax.close(this.text, close.pos, close.text));
        return inner;
      }
      return this.clause();
    } finally {
      this.depth--;
    }
  }

  private clause(): Clause | HistoryClause {
    const { field, pos } = this.field();
    const next = this.peek();
    if (this.isWord(next, "was") || this.isWord(next, "changed")) return this.history(field, pos);
    const operator = this.operator();
    return { kind: "clause", field, fieldPos: pos, operator, operand: this.operand() };
  }

  private history(field: string, fieldPos: number): HistoryClause {
    let operator: HistoryOperator = "changed";
    let operand: Operand | null = null;
    if (this.isWord(this.take(), "was")) {
      const not = this.isWord(this.peek(), "not") && this.take() !== undefined;
      const list = this.isWord(this.peek(), "in") && this.take() !== undefined;
      operator = `was${not ? " not" : ""}${list ? " in" : ""}` as HistoryOperator;
      operand = this.operand();
    }
    const allowed = operator === "changed" ? CHANGED_PREDICATES : WAS_PREDICATES;
    const predicates: HistoryPredicate[] = [];
    for (let token = this.peek(); token.kind === "word" && allowed.has(token.text.toLowerCase()); ) {
      this.take(true);
      const kind = token.text.toLowerCase() as PredicateKind;
      predicates.push({ kind, operand: this.operand(), pos: token.pos });
      token = this.peek();
    }
    return { kind: "history", field, fieldPos, operator, operand, predicates };
  }

  private field(): { field: string; pos: number } {
    const token = this.take();
    if (token.kind === "end") this.fail(syntax.fieldAtEnd());
    if (token.kind === "string" || (token.kind === "word" && !KEYWORDS.has(token.text.toLowerCase())))
      return { field: token.text, pos: token.pos };
    return this.fail(syntax.field(this.text, token.pos, token.text));
  }

  private operator(): Operator {
    const token = this.take();
    if (token.kind === "end") this.fail(syntax.operatorAtEnd());
    if (token.kind === "op") return token.text as Operator;
    if (this.isWord(token, "in")) return "in";
    if (this.isWord(token, "not") && this.isWord(this.peek(), "in")) {
      this.take();
      return "not in";
    }
    if (this.isWord(token, "is")) {
      if (!this.isWord(this.peek(), "not")) return "is";
      this.take();
      return "is not";
    }
    return this.fail(syntax.operator(this.text, token.pos, token.text));
  }

  private operand(): Operand {
    const token = this.peek();
    if (token.kind !== "lparen") return this.item();
    this.take();
    const items = [this.item()];
    for (;;) {
      const next = this.take();
      if (next.kind === "rparen") return { kind: "list", items, pos: token.pos };
      if (next.kind === "end") this.fail(syntax.closeAtEnd());
      if (next.kind !== "comma") this.fail(syntax.close(this.text, next.pos, next.text));
      items.push(this.item());
    }
  }

  /** A single value, EMPTY, or a function call. */
  private item(): ValueOperand | EmptyOperand | FunctionOperand {
    const token = this.take();
    if (token.kind === "end") this.fail(syntax.valueAtEnd());
    if (token.kind === "string") return { kind: "value", text: token.text, quoted: true, pos: token.pos };
    if (token.kind !== "word") return this.fail(syntax.value(this.text, token.pos, token.text));
    const lower = token.text.toLowerCase();
    if (lower === "empty" || lower === "null") return { kind: "empty", pos: token.pos };
    if (KEYWORDS.has(lower)) this.fail(syntax.value(this.text, token.pos, token.text));
    if (this.peek().kind !== "lparen")
      return { kind: "value", text: token.text, quoted: false, pos: token.pos };
    this.take();
    return { kind: "function", name: token.text, args: this.args(), pos: token.pos };
  }

  private args(): string[] {
    const args: string[] = [];
    if (this.peek().kind === "rparen") {
      this.take();
      return args;
    }
    for (;;) {
      const arg = this.take();
      if (arg.kind === "end") this.fail(syntax.valueAtEnd());
      if (arg.kind !== "word" && arg.kind !== "string") this.fail(syntax.value(this.text, arg.pos, arg.text));
      args.push(arg.text);
      const next = this.take();
      if (next.kind === "rparen") return args;
      if (next.kind === "end") this.fail(syntax.closeAtEnd());
      if (next.kind !== "comma") this.fail(syntax.close(this.text, next.pos, next.text));
    }
  }

  private peek(): Token {
    return this.tokens[this.at]!;
  }

  private take(predicate = false): Token {
    const token = this.tokens[this.at]!;
    if (!predicate) this.refuseReserved(token);
    if (token.kind !== "end") this.at++;
    return token;
  }

  private isWord(token: Token, word: string): boolean {
    return token.kind === "word" && token.text.toLowerCase() === word;
  }

  private isSymbol(token: Token, ...symbols: string[]): boolean {
    return token.kind === "symbol" && symbols.includes(token.text);
  }

  /** The token after a clause: a misplaced history predicate there is told where it stands, not refused. */
  private takeAfterClause(): Token {
    return this.take(isPredicate(this.peek()));
  }

  /** A reserved word is an error wherever it is read, but as a history predicate (`take(true)`). */
  private refuseReserved(token: Token): void {
    if (token.reserved) this.fail(syntax.reservedWord(this.text, token.pos, token.text));
  }

  private fail(message: string): never {
    throw jqlError([message]);
  }
}
