/**
 * The fields JQL can search and sort on this site: their names and aliases (case-insensitive), the
 * operators each supports (as in Jira's field reference), how a clause on each becomes a predicate,
 * and the value each sorts by. Empty values sort last in ascending order.
 */
import { adfToText } from "../../adf/text.ts";
import { STATUS_CATEGORIES, STATUSES, statusById } from "../catalog.ts";
import type { Issue } from "../model.ts";
import type { Clause, Operator } from "./ast.ts";
import { dateClause, type Predicate, type SetField, setClause, textClause } from "./clauses.ts";
import type { JqlContext } from "./context.ts";
import { dueDateMs } from "./dates.ts";
import type { HistoryField } from "./history-clauses.ts";
import {
  issueRank,
  keyNumber,
  priorityRank,
  resolutionRank,
  resolveIssue,
  resolveIssueType,
  resolveLabel,
  resolveNothing,
  resolvePriority,
  resolveProject,
  resolveResolution,
  resolveStatus,
  resolveStatusCategory,
  resolveUser,
} from "./values.ts";

export type SortValue = string | number | null;

export interface SearchableField {
  names: string[];
  operators: readonly Operator[];
  compile(clause: Clause, op: Operator, ctx: JqlContext): Predicate;
  /** Absent for fields Jira cannot sort on (text, description, ...). */
  sort?(issue: Issue, ctx: JqlContext): SortValue;
  /** Present for the fields WAS and CHANGED search (see history-clauses.ts). */
  history?: HistoryField;
}

const EQUALITY: Operator[] = ["=", "!=", "in", "not in"];
const EMPTYABLE: Operator[] = [...EQUALITY, "is", "is not"];
const ORDERED: Operator[] = [...EMPTYABLE, ">", ">=", "<", "<="];
const TEXT: Operator[] = ["~", "!~", "is", "is not"];

const set =
  (spec: SetField) =>
  (clause: Clause, op: Operator, ctx: JqlContext): Predicate =>
    setClause(spec, clause, op, ctx);

/** A value-set field, searched by its current value and, with a changelog field id, through its history. */
const setField = (spec: SetField, historyFieldId?: string) => ({
  compile: set(spec),
  ...(historyFieldId === undefined ? {} : { history: { fieldId: historyFieldId, spec } }),
});

const userField = (
  get: (issue: Issue) => string | null,
  historyFieldId?: string,
): Pick<SearchableField, "operators" | "compile" | "sort" | "history"> => ({
  operators: EMPTYABLE,
  ...setField(
    { get: (i) => nonNull(get(i)), resolve: resolveUser, functions: "user", emptyable: true },
    historyFieldId,
  ),
  sort: (issue, ctx) => {
    const id = get(issue);
    return id === null ? null : (ctx.site.get("users", id)?.displayName.toLowerCase() ?? id);
  },
});

const dateField = (
  get: (issue: Issue) => number | null,
): Pick<SearchableField, "operators" | "compile" | "sort"> => ({
  operators: ORDERED,
  compile: (clause, op, ctx) => dateClause(get, clause, op, ctx),
  sort: get,
});

const textField = (
  get: (issue: Issue, ctx: JqlContext) => string,
  operators: Operator[] = TEXT,
): Pick<SearchableField, "operators" | "compile"> => ({
  operators,
  compile: (clause, op, ctx) => textClause(get, clause, op, ctx),
});

const nonNull = (value: string | null): string[] => (value === null ? [] : [value]);

const keySort = (issue: Issue) => {
  const project = issue.key.slice(0, issue.key.lastIndexOf("-"));
  return `${project}\u0000${String(keyNumber(issue.key)).padStart(12, "0")}`;
};

const FIELDS: SearchableField[] = [
  {
    names: ["project"],
    operators: EQUALITY,
    compile: set({ get: (i) => [i.projectId], resolve: resolveProject, emptyable: false }),
    sort: (issue, ctx) => ctx.site.get("projects", issue.projectId)?.key ?? null,
  },
  {
    names: ["key", "issuekey", "issue", "id"],
    operators: [...EQUALITY, ">", ">=", "<", "<="],
    compile: set({ get: (i) => [i.id], resolve: resolveIssue, emptyable: false, rank: issueRank }),
    sort: keySort,
  },
  {
    names: ["issuetype", "type"],
    operators: EQUALITY,
    compile: set({
      get: (i) => [i.issueTypeId],
      resolve: resolveIssueType,
      functions: "issuetype",
      emptyable: false,
    }),
    sort: (issue, ctx) => ctx.site.get("issueTypes", issue.issueTypeId)?.name.toLowerCase() ?? null,
  },
  {
    names: ["status"],
    operators: EQUALITY,
    ...setField({ get: (i) => [i.statusId], resolve: resolveStatus, emptyable: false }, "status"),
    sort: (issue) => STATUSES.findIndex((s) => s.id === issue.statusId),
  },
  {
    names: ["statuscategory"],
    operators: EQUALITY,
    compile: set({
      get: (i) => [String(statusById(i.statusId)?.categoryId)],
      resolve: resolveStatusCategory,
      emptyable: false,
    }),
    sort: (issue) => STATUS_CATEGORIES.findIndex((c) => c.id === statusById(issue.statusId)?.categoryId),
  },
  { names: ["assignee"], ...userField((i) => i.assigneeId, "assignee") },
  { names: ["reporter"], ...userField((i) => i.reporterId, "reporter") },
  { names: ["creator"], ...userField((i) => i.creatorId) },
  {
    names: ["labels"],
    operators: EMPTYABLE,
    compile: set({
      get: (i) => i.labels.map((l) => l.toLowerCase()),
      resolve: resolveLabel,
      emptyable: true,
    }),
    sort: (issue) =>
      issue.labels.length === 0
        ? null
        : issue.labels
            .map((l) => l.toLowerCase())
            .sort()
            .join(" "),
  },
  {
    names: ["parent"],
    operators: EQUALITY,
    compile: set({ get: (i) => nonNull(i.parentId), resolve: resolveIssue, emptyable: false }),
    sort: (issue, ctx) => {
      const parent = issue.parentId ? ctx.site.get("issues", issue.parentId) : undefined;
      return parent ? keySort(parent) : null;
    },
  },
  {
    names: ["priority"],
    operators: ORDERED,
    ...setField(
      { get: (i) => [i.priorityId], resolve: resolvePriority, emptyable: true, rank: priorityRank },
      "priority",
    ),
    sort: (issue) => priorityRank(issue.priorityId)?.[1] ?? null,
  },
  {
    names: ["resolution"],
    operators: ORDERED,
    ...setField(
      {
        get: (i) => nonNull(i.resolutionId),
        resolve: resolveResolution,
        emptyable: true,
        rank: resolutionRank,
      },
      "resolution",
    ),
    sort: (issue) => (issue.resolutionId === null ? null : (resolutionRank(issue.resolutionId)?.[1] ?? null)),
  },
  ...[["component"], ["fixversion"], ["affectedversion"]].map(
    (names): SearchableField => ({
      // The site's projects define no components or versions: every value is unknown, every issue EMPTY
      // (and always was: fix versions are searched through history too, and never changed).
      names,
      operators: EMPTYABLE,
      ...setField(
        { get: () => [], resolve: resolveNothing, emptyable: true },
        names[0] === "fixversion" ? "fixVersions" : undefined,
      ),
      sort: () => null,
    }),
  ),
  { names: ["created", "createddate"], ...dateField((i) => i.created) },
  { names: ["updated", "updateddate"], ...dateField((i) => i.updated) },
  { names: ["resolved", "resolutiondate"], ...dateField((i) => i.resolutionDate) },
  { names: ["due", "duedate"], ...dateField((i) => dueDateMs(i.duedate)) },
  { names: ["summary"], ...textField((i) => i.summary), sort: (issue) => issue.summary.toLowerCase() },
  { names: ["description"], ...textField((i) => adfToText(i.description)) },
  { names: ["environment"], ...textField((i) => adfToText(i.environment)) },
  { names: ["comment"], ...textField((i, ctx) => commentText(i, ctx), ["~", "!~"]) },
  {
    names: ["text"],
    ...textField(
      (i, ctx) =>
        [i.summary, adfToText(i.description), adfToText(i.environment), commentText(i, ctx)].join("\n"),
      ["~"],
    ),
  },
];

const BY_NAME = new Map(FIELDS.flatMap((field) => field.names.map((name) => [name, field] as const)));

/** The searchable field a query names (case-insensitively), if the site has it. */
export function findSearchableField(name: string): SearchableField | undefined {
  return BY_NAME.get(name.toLowerCase());
}

const COMMENTS = new WeakMap<JqlContext, Map<string, string>>();

/** All comment text of an issue, indexed once per query. */
function commentText(issue: Issue, ctx: JqlContext): string {
  let index = COMMENTS.get(ctx);
  if (!index) {
    index = new Map();
    for (const comment of ctx.site.values("comments"))
      index.set(comment.issueId, `${index.get(comment.issueId) ?? ""}${adfToText(comment.body)}\n`);
    COMMENTS.set(ctx, index);
  }
  return index.get(issue.id) ?? "";
}
