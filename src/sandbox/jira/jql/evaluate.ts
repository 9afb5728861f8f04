/**
 * Compiles a JQL search restriction into a predicate over issues. NOT is pushed down to the clauses
 * the way Jira rewrites queries (De Morgan for AND/OR, the opposite operator for a clause), so
 * `NOT assignee = x` means `assignee != x` and, like it, leaves unassigned issues out (history clauses are
 * negated whole, see history-clauses.ts). Unknown fields and
 * operators a field does not support are collected in ctx.errors with every other problem.
 */
import { type Clause, type HistoryClause, NEGATED, type Node } from "./ast.ts";
import { NEVER, type Predicate } from "./clauses.ts";
import type { JqlContext } from "./context.ts";
import { semantic } from "./errors.ts";
import { historyClause } from "./history-clauses.ts";
import { findSearchableField } from "./searchable-fields.ts";

export function compileWhere(node: Node, ctx: JqlContext): Predicate {
  return compile(node, false, ctx);
}

function compile(node: Node, negated: boolean, ctx: JqlContext): Predicate {
  if (node.kind === "not") return compile(node.child, !negated, ctx);
  if (node.kind === "clause") return compileClause(node, negated, ctx);
  if (node.kind === "history") return compileHistory(node, negated, ctx);
  const children = node.children.map((child) => compile(child, negated, ctx));
  const every = (node.kind === "and") !== negated;
  return every ? (issue) => children.every((p) => p(issue)) : (issue) => children.some((p) => p(issue));
}

function compileClause(clause: Clause, negated: boolean, ctx: JqlContext): Predicate {
  const field = findSearchableField(clause.field);
  if (!field) {
    ctx.errors.push(semantic.noField(clause.field));
    return NEVER;
  }
  if (!field.operators.includes(clause.operator)) {
    ctx.errors.push(semantic.operator(clause.operator, clause.field));
    return NEVER;
  }
  return field.compile(clause, negated ? NEGATED[clause.operator] : clause.operator, ctx);
}

/** A history clause; NOT in front of it finds the issues it does not (`NOT status WAS x` is `WAS NOT`). */
function compileHistory(clause: HistoryClause, negated: boolean, ctx: JqlContext): Predicate {
  const field = findSearchableField(clause.field);
  if (!field) {
    ctx.errors.push(semantic.noField(clause.field));
    return NEVER;
  }
  if (!field.history) {
    ctx.errors.push(semantic.operator(clause.operator, clause.field));
    return NEVER;
  }
  const predicate = historyClause(field.history, clause, ctx);
  return negated ? (issue) => !predicate(issue) : predicate;
}
