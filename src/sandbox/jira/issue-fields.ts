/**
 * Validates requested field values for createIssue and editIssue and turns them into the stored
 * Issue record. Every problem is collected into `errors` (as Jira reports several at once) and nothing
 * is written here; callers write only when `errors` stays empty.
 */

import type { AdfDocument } from "../adf/types.ts";
import { validateAdf } from "../adf/validate.ts";
import type { Site } from "../site.ts";
import { DEFAULT_PRIORITY_ID } from "./catalog.ts";
import {
  type FieldErrors,
  INVALID_ISSUE_TYPE,
  INVALID_PROJECT,
  MISSING_ISSUE_TYPE,
  NOT_AN_ARRAY,
  NOT_AN_OBJECT,
  type Resolved,
  readRef,
  resolveIssueType,
  resolveParent,
  resolvePriority,
  resolveProject,
  resolveUser,
} from "./issue-input.ts";
import type { Issue, IssueType, Project } from "./model.ts";

/** Fields a create request may set. */
export const CREATE_FIELDS: ReadonlySet<string> = new Set([
  "project",
  "issuetype",
  "summary",
  "description",
  "environment",
  "assignee",
  "reporter",
  "priority",
  "labels",
  "duedate",
  "parent",
]);

/** Fields an edit request may set (moving an issue to another project is not an edit). */
export const EDIT_FIELDS: ReadonlySet<string> = new Set([...CREATE_FIELDS].filter((f) => f !== "project"));

export const MISSING_SUMMARY = "You must specify a summary of the issue.";
export const SUBTASK_WITHOUT_PARENT = "Issue type is a sub-task but parent issue key or id not specified.";
export const WRONG_HIERARCHY = "Given parent work item does not belong to appropriate hierarchy.";
export const PARENT_OTHER_PROJECT = "Sub-tasks must be created in the same project as the parent.";

/** The editable part of an issue record. */
export type IssueValues = Pick<
  Issue,
  | "issueTypeId"
  | "summary"
  | "description"
  | "environment"
  | "priorityId"
  | "assigneeId"
  | "reporterId"
  | "labels"
  | "parentId"
  | "duedate"
>;

/**
 * Validates a create request's values; null when `errors` got entries. Without an `assignee` the issue
 * goes to the project's default assignee (its lead); `"assignee": null` leaves it unassigned.
 */
export function buildNewIssue(
  site: Site,
  values: Record<string, unknown>,
  errors: FieldErrors,
  callerId: string,
): { project: Project; values: IssueValues } | null {
  let project: Project | undefined;
  if (values.project === undefined) errors.project ??= INVALID_PROJECT;
  else project = take(errors, "project", resolveProject(site, values.project));
  let type: IssueType | undefined;
  if (values.issuetype === undefined) errors.issuetype ??= MISSING_ISSUE_TYPE;
  else if (project) type = take(errors, "issuetype", resolveIssueType(site, project, values.issuetype));
  else if (!readRef(values.issuetype)) errors.issuetype = NOT_AN_OBJECT;
  if (values.summary === undefined) errors.summary ??= MISSING_SUMMARY;
  const draft: IssueValues = {
    issueTypeId: type?.id ?? "",
    summary: "",
    description: null,
    environment: null,
    priorityId: DEFAULT_PRIORITY_ID,
    assigneeId: null,
    reporterId: callerId,
    labels: [],
    parentId: null,
    duedate: null,
  };
  if (project && !("assignee" in values)) draft.assigneeId = project.leadAccountId;
  applyCommonFields(site, values, errors, draft, project);
  if (type && project) {
    if (values.parent === undefined || values.parent === null) {
      if (type.subtask && !("parent" in errors)) errors.issuetype = SUBTASK_WITHOUT_PARENT;
    } else checkParent(site, values.parent, type, project, errors, draft, "project");
  }
  return project && type && Object.keys(errors).length === 0 ? { project, values: draft } : null;
}

/** Validates an edit request's values against the issue; the changed record, or null on errors. */
export function applyIssueEdit(
  site: Site,
  issue: Issue,
  values: Record<string, unknown>,
  errors: FieldErrors,
): Issue | null {
  const project = site.get("projects", issue.projectId)!;
  const next: Issue = { ...issue };
  let type = site.get("issueTypes", issue.issueTypeId)!;
  if ("issuetype" in values) {
    const wanted = take(errors, "issuetype", resolveIssueType(site, project, values.issuetype));
    if (wanted && wanted.hierarchyLevel !== type.hierarchyLevel) errors.issuetype = INVALID_ISSUE_TYPE;
    else if (wanted) {
      type = wanted;
      next.issueTypeId = wanted.id;
    }
  }
  applyCommonFields(site, values, errors, next, project);
  if ("parent" in values) {
    if (values.parent === null) {
      if (type.subtask) errors.parent = SUBTASK_WITHOUT_PARENT;
      else next.parentId = null;
    } else checkParent(site, values.parent, type, project, errors, next, "parent", issue.id);
  }
  return Object.keys(errors).length === 0 ? next : null;
}

/** Fields whose rules do not depend on the issue type: summary, texts, people, priority, labels, due date. */
function applyCommonFields(
  site: Site,
  values: Record<string, unknown>,
  errors: FieldErrors,
  target: IssueValues,
  project: Project | undefined,
): void {
  if (values.summary !== undefined) {
    const problem = summaryProblem(values.summary);
    if (problem) errors.summary = problem;
    else target.summary = (values.summary as string).trim();
  }
  for (const field of ["description", "environment"] as const) {
    if (!(field in values)) continue;
    const value = values[field];
    const problem = value === null ? null : validateAdf(value);
    if (problem) errors[field] = problem;
    else target[field] = value === null ? null : (structuredClone(value) as AdfDocument);
  }
  if ("priority" in values) {
    const priority = take(errors, "priority", resolvePriority(values.priority));
    if (priority) target.priorityId = priority;
  }
  if ("assignee" in values) {
    const assignee = take(errors, "assignee", resolveUser(site, values.assignee, "assignee", project));
    if (assignee !== undefined) target.assigneeId = assignee;
  }
  if ("reporter" in values) {
    const reporter = take(errors, "reporter", resolveUser(site, values.reporter, "reporter", project));
    if (reporter === null) errors.reporter = "Reporter is required.";
    else if (reporter !== undefined) target.reporterId = reporter;
  }
  if ("labels" in values) {
    const labels = readLabels(values.labels);
    if (typeof labels === "string") errors.labels = labels;
    else target.labels = labels;
  }
  if ("duedate" in values) {
    const due = values.duedate;
    if (due === null) target.duedate = null;
    else if (isIsoDate(due)) target.duedate = due;
    else errors.duedate = `Error parsing date string: ${typeof due === "string" ? due : JSON.stringify(due)}`;
  }
}

/** A parent must exist, sit one level above the issue type (sub-tasks under standard issues), and share its project. */
function checkParent(
  site: Site,
  value: unknown,
  type: IssueType,
  project: Project,
  errors: FieldErrors,
  target: IssueValues,
  projectErrorField: "project" | "parent",
  selfId?: string,
): void {
  const parent = take(errors, "parent", resolveParent(site, value));
  if (!parent) return;
  const parentType = site.get("issueTypes", parent.issueTypeId)!;
  if (!type.subtask || parentType.subtask || parent.id === selfId) errors.parent = WRONG_HIERARCHY;
  else if (parent.projectId !== project.id) errors[projectErrorField] = PARENT_OTHER_PROJECT;
  else target.parentId = parent.id;
}

function summaryProblem(value: unknown): string | null {
  if (typeof value !== "string") return "Operation value must be a string";
  const summary = value.trim();
  if (summary === "") return MISSING_SUMMARY;
  if (/[\r\n]/.test(summary)) return "The summary is invalid because it contains newline characters.";
  if (summary.length >= 255) return "Summary must be less than 255 characters.";
  return null;
}

/** The labels as stored (distinct, sorted), or the message for `errors.labels`. */
function readLabels(value: unknown): string[] | string {
  if (value === null) return [];
  if (!Array.isArray(value)) return NOT_AN_ARRAY;
  for (const label of value) {
    if (typeof label !== "string") return "The label must be a string.";
    if (label === "" || /\s/.test(label)) return `The label '${label}' contains spaces which is invalid.`;
    if (label.length > 255) return `The label '${label}' exceeds the maximum length of 255 characters.`;
  }
  return [...new Set(value as string[])].sort();
}

function isIsoDate(value: unknown): value is string {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** The resolved value, or undefined after recording the error under `field`. */
function take<T>(errors: FieldErrors, field: string, resolved: Resolved<T>): T | undefined {
  if (resolved.ok) return resolved.value;
  errors[field] = resolved.error;
  return undefined;
}
