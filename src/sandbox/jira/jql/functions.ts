/**
 * JQL functions the simulated site knows: `currentUser()` for user fields; `now()` and the
 * `startOf…`/`endOf…` family for date fields (relative to the site clock, in UTC); and
 * `standardIssueTypes()` / `subTaskIssueTypes()` for the issue type field. A function used on a field it
 * does not serve, with the wrong number of arguments, or unknown, is Jira's 400.
 */
import type { FunctionOperand } from "./ast.ts";
import type { JqlContext } from "./context.ts";
import { type CalendarUnit, endOf, parseIncrement, shift, startOf } from "./dates.ts";
import { semantic } from "./errors.ts";

/** What a function yields: accountIds, an instant, or issue type ids. */
export type FunctionKind = "user" | "date" | "issuetype";

interface FunctionDef {
  name: string;
  kind: FunctionKind;
  maxArgs: number;
  /** Returns the values, or a message when an argument is wrong. */
  run(args: string[], ctx: JqlContext): string[] | number | { error: string };
}

const dateFunction = (name: string, unit: "d" | "w" | "M" | "y", edge: "start" | "end"): FunctionDef => ({
  name,
  kind: "date",
  maxArgs: 1,
  run(args, ctx) {
    let base = ctx.now;
    if (args.length > 0) {
      const increment = parseIncrement(args[0]!, unit as CalendarUnit);
      if (!increment) return { error: semantic.functionDuration(args[0]!, name) };
      base = shift(base, increment.amount, increment.unit);
    }
    return edge === "start" ? startOf(base, unit) : endOf(base, unit);
  },
});

const FUNCTIONS: FunctionDef[] = [
  { name: "currentUser", kind: "user", maxArgs: 0, run: (_args, ctx) => [ctx.accountId] },
  { name: "now", kind: "date", maxArgs: 0, run: (_args, ctx) => ctx.now },
  dateFunction("startOfDay", "d", "start"),
  dateFunction("endOfDay", "d", "end"),
  dateFunction("startOfWeek", "w", "start"),
  dateFunction("endOfWeek", "w", "end"),
  dateFunction("startOfMonth", "M", "start"),
  dateFunction("endOfMonth", "M", "end"),
  dateFunction("startOfYear", "y", "start"),
  dateFunction("endOfYear", "y", "end"),
  {
    name: "standardIssueTypes",
    kind: "issuetype",
    maxArgs: 0,
    run: (_args, ctx) => [...ctx.site.values("issueTypes")].filter((t) => !t.subtask).map((t) => t.id),
  },
  {
    name: "subTaskIssueTypes",
    kind: "issuetype",
    maxArgs: 0,
    run: (_args, ctx) => [...ctx.site.values("issueTypes")].filter((t) => t.subtask).map((t) => t.id),
  },
];

const BY_NAME = new Map(FUNCTIONS.map((f) => [f.name.toLowerCase(), f]));

/**
 * Runs a function for a field that accepts `kind` (undefined: the field takes no function). Problems are added to ctx.errors (and undefined
 * returned), so that one query reports all of them.
 */
export function runFunction(
  operand: FunctionOperand,
  kind: FunctionKind | undefined,
  field: string,
  ctx: JqlContext,
): string[] | number | undefined {
  const fn = BY_NAME.get(operand.name.toLowerCase());
  if (!fn) {
    ctx.errors.push(semantic.noFunction(`${operand.name}(${operand.args.join(", ")})`));
    return undefined;
  }
  if (fn.kind !== kind) {
    ctx.errors.push(semantic.functionForField(fn.name, field));
    return undefined;
  }
  if (operand.args.length > fn.maxArgs) {
    ctx.errors.push(semantic.functionArity(fn.name, 0, fn.maxArgs, operand.args.length));
    return undefined;
  }
  const result = fn.run(operand.args, ctx);
  if (typeof result === "object" && !Array.isArray(result)) {
    ctx.errors.push(result.error);
    return undefined;
  }
  return result;
}
