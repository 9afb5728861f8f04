/**
 * JQL's history searches over the site's changelog (jira/history.ts): `WAS`, `WAS NOT`, `WAS IN`,
 * `WAS NOT IN` and `CHANGED`, with the predicates AFTER, BEFORE, ON, DURING and BY (and FROM and TO
 * after CHANGED), for the fields Jira searches this way (status, assignee, reporter, priority, resolution,
 * fix version).
 *
 * An issue's field held one value from its creation until its first recorded change (that change's
 * `from`; the current value when nothing changed), set by the issue's creator, then each change's `to`
 * from its time on, set by its author. `WAS x` finds issues whose field held x at any time, now included;
 * `WAS NOT` is its opposite. Time predicates keep the spans (WAS) or changes (CHANGED) that fall in their
 * window: AFTER and BEFORE compare with a date's start, ON and DURING cover whole days.
 */

import { historyOf } from "../history.ts";
import type { Issue } from "../model.ts";
import type { HistoryClause, HistoryPredicate } from "./ast.ts";
import { dateSpanOf, NEVER, operandItems, type Predicate, resolveItems, type SetField } from "./clauses.ts";
import type { JqlContext } from "./context.ts";
import { semantic } from "./errors.ts";
import { resolveUser } from "./values.ts";

/** How a field is searched through history: its changelog items' `fieldId` and how to read its values. */
export interface HistoryField {
  fieldId: string;
  spec: SetField;
}

/** A time the field held one value (WAS), or one change of it (CHANGED: start = end = its time). */
interface Moment {
  from: string | null;
  to: string | null;
  start: number;
  end: number;
  by: string | null;
}

type Test = (moment: Moment) => boolean;

const USERS: SetField = { get: () => [], resolve: resolveUser, functions: "user", emptyable: false };

/** Values matched by a WAS operand or FROM/TO: canonical ids, and whether EMPTY is one of them. */
type Values = { values: Set<string>; empty: boolean };
const matches = (wanted: Values, value: string | null) =>
  value === null ? wanted.empty : wanted.values.has(value);

export function historyClause(history: HistoryField, clause: HistoryClause, ctx: JqlContext): Predicate {
  const changed = clause.operator === "changed";
  const wanted = clause.operand && valuesOf(history.spec, clause.operand, clause.operator, clause.field, ctx);
  const tests = clause.predicates.map((predicate) => predicateTest(history, predicate, changed, clause, ctx));
  if (wanted === undefined || tests.some((test) => test === undefined)) return NEVER;
  const all = tests as Test[];
  const holds = (moment: Moment) => all.every((test) => test(moment));
  if (changed) return (issue) => changesOf(issue, history, ctx).some(holds);
  const found = (issue: Issue) =>
    spansOf(issue, history, ctx).some((span) => matches(wanted!, span.to) && holds(span));
  return clause.operator.startsWith("was not") ? (issue) => !found(issue) : found;
}

function valuesOf(
  spec: SetField,
  operand: HistoryPredicate["operand"],
  operator: string,
  field: string,
  ctx: JqlContext,
): Values | undefined {
  const items = operandItems(operand, operator, field, spec.emptyable, ctx);
  return items && resolveItems(spec, items, field, ctx);
}

/** One predicate as a test of a moment; undefined after an error (collected in ctx.errors). */
function predicateTest(
  history: HistoryField,
  predicate: HistoryPredicate,
  changed: boolean,
  clause: HistoryClause,
  ctx: JqlContext,
): Test | undefined {
  const { kind, operand } = predicate;
  if (kind === "by") {
    const users = valuesOf(USERS, operand, "in", kind, ctx);
    return users && ((moment) => moment.by !== null && users.values.has(moment.by));
  }
  if (kind === "from" || kind === "to") {
    const wanted = valuesOf(history.spec, operand, "in", clause.field, ctx);
    if (!wanted) return undefined;
    return kind === "from"
      ? (moment) => matches(wanted, moment.from)
      : (moment) => matches(wanted, moment.to);
  }
  const window = windowOf(predicate, ctx);
  if (!window) return undefined;
  const [start, end] = window;
  // A change is at one instant; a span covers [start, end) and must overlap the window.
  return changed
    ? (moment) => start <= moment.start && moment.start < end
    : (moment) => moment.start < end && moment.end > start;
}

/** The window [start, end) of a time predicate: AFTER and BEFORE open from a date's start. */
function windowOf(predicate: HistoryPredicate, ctx: JqlContext): [number, number] | undefined {
  const { kind, operand } = predicate;
  const items = operand.kind === "list" ? operand.items : [operand];
  const count = kind === "during" ? 2 : 1;
  if (items.length !== count || items.some((item) => item.kind === "empty")) {
    ctx.errors.push(semantic.predicateDates(kind.toUpperCase(), count));
    return undefined;
  }
  const name = kind.toUpperCase();
  const spans = items.map((item) =>
    dateSpanOf(item as Exclude<typeof item, { kind: "empty" }>, name, ctx, semantic.predicateDate),
  );
  const [first, last] = [spans[0], spans[spans.length - 1]];
  if (!first || !last) return undefined;
  if (kind === "after") return [first.start + 1, Number.POSITIVE_INFINITY];
  if (kind === "before") return [Number.NEGATIVE_INFINITY, first.start];
  return [first.start, last.end];
}

/** The field's changes on an issue, oldest first. */
function changesOf(issue: Issue, history: HistoryField, ctx: JqlContext): Moment[] {
  const moments: Moment[] = [];
  for (const change of historyOf(ctx.site, issue.id))
    for (const item of change.items)
      if (item.fieldId === history.fieldId)
        moments.push({
          from: item.from,
          to: item.to,
          start: change.created,
          end: change.created,
          by: change.authorId,
        });
  return moments;
}

/** The spans of time the field held each value, from the issue's creation on (`to` is the value). */
function spansOf(issue: Issue, history: HistoryField, ctx: JqlContext): Moment[] {
  const changes = changesOf(issue, history, ctx);
  const first = changes.length > 0 ? changes[0]!.from : (history.spec.get(issue, ctx)[0] ?? null);
  const spans: Moment[] = [{ from: null, to: first, start: issue.created, end: 0, by: issue.creatorId }];
  for (const change of changes) spans.push({ ...change, from: null });
  for (let i = 0; i < spans.length; i++) spans[i]!.end = spans[i + 1]?.start ?? Number.POSITIVE_INFINITY;
  return spans;
}
