/**
 * Clause builders: turn one validated clause (field, operator, operand) into a predicate over issues,
 * for the three kinds of field the site searches: value sets (project, status, users, labels, keys,
 * ...), dates, and text. Problems are collected in ctx.errors. The operator given is the one in effect
 * after NOT was pushed down (so `NOT a = b` arrives as `!=`); messages name the operator as written.
 *
 * Jira's rules kept here: `!=`, `NOT IN`, `!~` and the comparisons never match an empty field; only
 * `IS EMPTY`, `= EMPTY` and `IN (..., EMPTY)` do.
 */
import type { Issue } from "../model.ts";
import type { Clause, EmptyOperand, FunctionOperand, Operand, Operator, ValueOperand } from "./ast.ts";
import type { JqlContext } from "./context.ts";
import { type DateSpan, parseDateValue } from "./dates.ts";
import { semantic } from "./errors.ts";
import { type FunctionKind, runFunction } from "./functions.ts";
import { compileTextQuery } from "./text-match.ts";

export type Predicate = (issue: Issue) => boolean;

export const NEVER: Predicate = () => false;

export type Item = ValueOperand | EmptyOperand | FunctionOperand;

const POSITIVE = new Set<Operator>(["=", "in", "is"]);
const NEGATIVE = new Set<Operator>(["!=", "not in", "is not"]);
/** The operators that take a list of values (the history operators' too). */
const LIST_OPERATORS = new Set(["in", "not in", "was in", "was not in"]);

/** The operand's items, after the operator-shape checks every field shares; undefined on error. */
export function operandItems(
  operand: Operand,
  operator: string,
  field: string,
  emptyable: boolean,
  ctx: JqlContext,
): Item[] | undefined {
  const items = operand.kind === "list" ? operand.items : [operand];
  if ((operator === "is" || operator === "is not") && operand.kind !== "empty") {
    ctx.errors.push(semantic.isNeedsEmpty(operator, field));
    return undefined;
  }
  if (operand.kind === "list" && !LIST_OPERATORS.has(operator)) {
    ctx.errors.push(semantic.listNotSupported(operator, field));
    return undefined;
  }
  if (!emptyable && items.some((item) => item.kind === "empty")) {
    ctx.errors.push(semantic.emptyNotSupported(field));
    return undefined;
  }
  return items;
}

export interface SetField {
  /** The issue's values (canonical strings); [] when the field is empty. */
  get(issue: Issue, ctx: JqlContext): string[];
  /** Canonical values for a written value, "empty" for a value meaning EMPTY, undefined after an error. */
  resolve(item: ValueOperand, field: string, ctx: JqlContext): string[] | "empty" | undefined;
  /** The kind of function the field takes, if any. */
  functions?: FunctionKind;
  emptyable: boolean;
  /** For `<`, `>` and friends: a value's group (only values of one group compare) and rank. */
  rank?(value: string, ctx: JqlContext): [group: string, rank: number] | undefined;
}

export function setClause(spec: SetField, clause: Clause, op: Operator, ctx: JqlContext): Predicate {
  const items = operandItems(clause.operand, clause.operator, clause.field, spec.emptyable, ctx);
  const resolved = items && resolveItems(spec, items, clause.field, ctx);
  if (!resolved) return NEVER;
  const { values, empty } = resolved;
  const has = (issueValues: string[]) => issueValues.some((v) => values.has(v));
  if (POSITIVE.has(op))
    return (issue) => {
      const own = spec.get(issue, ctx);
      return own.length === 0 ? empty : has(own);
    };
  if (NEGATIVE.has(op))
    return (issue) => {
      const own = spec.get(issue, ctx);
      return own.length > 0 && !has(own);
    };
  const rank = spec.rank;
  if (!rank) return NEVER;
  const bounds = [...values].map((v) => rank(v, ctx)).filter((r) => r !== undefined);
  return (issue) =>
    spec.get(issue, ctx).some((value) => {
      const own = rank(value, ctx);
      return own !== undefined && bounds.some(([group, r]) => group === own[0] && compare(op, own[1], r));
    });
}

/** The canonical values a clause's items stand for, and whether EMPTY is among them; undefined on error. */
export function resolveItems(
  spec: SetField,
  items: Item[],
  field: string,
  ctx: JqlContext,
): { values: Set<string>; empty: boolean } | undefined {
  const values = new Set<string>();
  let empty = false;
  let ok = true;
  for (const item of items) {
    const resolved =
      item.kind === "empty"
        ? "empty"
        : item.kind === "value"
          ? spec.resolve(item, field, ctx)
          : functionValues(runFunction(item, spec.functions, field, ctx));
    if (resolved === undefined) ok = false;
    else if (resolved === "empty") empty = true;
    else for (const value of resolved) values.add(value);
  }
  return ok ? { values, empty } : undefined;
}

function functionValues(result: string[] | number | undefined): string[] | undefined {
  return Array.isArray(result) ? result : undefined;
}

function compare(op: Operator, a: number, b: number): boolean {
  if (op === "<") return a < b;
  if (op === "<=") return a <= b;
  if (op === ">") return a > b;
  if (op === ">=") return a >= b;
  return false;
}

/** Date fields: created, updated, resolved, due. */
export function dateClause(
  get: (issue: Issue) => number | null,
  clause: Clause,
  op: Operator,
  ctx: JqlContext,
): Predicate {
  const items = operandItems(clause.operand, clause.operator, clause.field, true, ctx);
  if (!items) return NEVER;
  const spans: DateSpan[] = [];
  let empty = false;
  let ok = true;
  for (const item of items) {
    if (item.kind === "empty") empty = true;
    else {
      const span = dateSpanOf(item, clause.field, ctx);
      if (span) spans.push(span);
      else ok = false;
    }
  }
  if (!ok) return NEVER;
  const within = (v: number) => spans.some((s) => s.start <= v && v < s.end);
  if (POSITIVE.has(op))
    return (issue) => {
      const v = get(issue);
      return v === null ? empty : within(v);
    };
  if (NEGATIVE.has(op))
    return (issue) => {
      const v = get(issue);
      return v !== null && !within(v);
    };
  return (issue) => {
    const v = get(issue);
    return v !== null && spans.some((s) => compare(op, v, s.start));
  };
}

/** The span a date value or date function stands for (a function, its instant); undefined on error. */
export function dateSpanOf(
  item: ValueOperand | FunctionOperand,
  field: string,
  ctx: JqlContext,
  invalid: (value: string, field: string) => string = semantic.date,
) {
  if (item.kind === "function") {
    const at = runFunction(item, "date", field, ctx);
    return typeof at === "number" ? { start: at, end: at + 1 } : undefined;
  }
  const span = parseDateValue(item.text, ctx.now);
  if (!span) ctx.errors.push(invalid(item.text, field));
  return span;
}

/** Text fields: summary, description, environment, comment, text. */
export function textClause(
  get: (issue: Issue, ctx: JqlContext) => string,
  clause: Clause,
  op: Operator,
  ctx: JqlContext,
): Predicate {
  const items = operandItems(clause.operand, clause.operator, clause.field, true, ctx);
  if (!items) return NEVER;
  const item = items[0]!;
  const isEmpty = (issue: Issue) => get(issue, ctx).trim() === "";
  if (item.kind === "empty") return POSITIVE.has(op) || op === "~" ? isEmpty : (issue) => !isEmpty(issue);
  if (item.kind === "function") {
    runFunction(item, undefined, clause.field, ctx);
    return NEVER;
  }
  if (item.text.trim() === "") {
    ctx.errors.push(semantic.emptyText(clause.field));
    return NEVER;
  }
  const query = compileTextQuery(item.text);
  if (op === "~") return (issue) => query.matches(get(issue, ctx));
  return (issue) => !isEmpty(issue) && !query.matches(get(issue, ctx));
}
