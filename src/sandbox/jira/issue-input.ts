/**
 * Reading references in Jira write bodies: `{"id"}`, `{"key"}`, `{"name"}` and `{"accountId"}` objects
 * for projects, issue types, priorities, users, parent issues and resolutions, answered with the
 * messages real Jira puts under `errors.<field>` when a reference is malformed or points at nothing.
 */
import type { Site } from "../site.ts";
import { PRIORITIES, RESOLUTIONS } from "./catalog.ts";
import type { Issue, IssueType, JiraUser, Project } from "./model.ts";
import { findIssue, findUser, projectIssueTypes } from "./store.ts";

/** Field id → message, as Jira's ErrorCollection `errors` holds them. */
export type FieldErrors = Record<string, string>;

/** A resolved value, or the message for `errors.<field>`. */
export type Resolved<T> = { ok: true; value: T } | { ok: false; error: string };

export const NOT_AN_OBJECT = "data was not an object";
export const NOT_AN_ARRAY = "data was not an array";
export const INVALID_PROJECT = "Specify a valid project ID or key";
export const INVALID_ISSUE_TYPE = "The issue type selected is invalid.";
export const MISSING_ISSUE_TYPE = "Specify an issue type";
export const INVALID_PRIORITY = "Specify the Priority (id or name) in the proper format";
export const UNKNOWN_USER = "Specified user does not exist or you do not have required permissions";
export const PARENT_NOT_FOUND = "Could not find issue by id or key.";
export const INVALID_RESOLUTION = "The resolution selected is invalid.";

/** Jira's answer for a field that the operation's screen does not offer (or that does not exist). */
export const cannotSet = (field: string) =>
  `Field '${field}' cannot be set. It is not on the appropriate screen, or unknown.`;

const ok = <T>(value: T): Resolved<T> => ({ ok: true, value });
const fail = <T>(error: string): Resolved<T> => ({ ok: false, error });

export interface Ref {
  id?: string;
  key?: string;
  name?: string;
  accountId?: string;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads a reference object; ids may arrive as numbers. Null when the value is not an object. */
export function readRef(value: unknown): Ref | null {
  if (!isPlainObject(value)) return null;
  const text = (v: unknown) =>
    typeof v === "string" ? v : typeof v === "number" && Number.isFinite(v) ? String(v) : undefined;
  const ref: Ref = {};
  for (const name of ["id", "key", "name", "accountId"] as const) {
    const v = text(value[name]);
    if (v !== undefined) ref[name] = v;
  }
  return ref;
}

export function resolveProject(site: Site, value: unknown): Resolved<Project> {
  const ref = readRef(value);
  if (!ref) return fail(NOT_AN_OBJECT);
  const projects = [...site.values("projects")];
  const found =
    (ref.id !== undefined && projects.find((p) => p.id === ref.id)) ||
    (ref.key !== undefined &&
      (projects.find((p) => p.key === ref.key) ??
        projects.find((p) => p.key.toUpperCase() === ref.key!.toUpperCase())));
  return found ? ok(found) : fail(INVALID_PROJECT);
}

/** An issue type of the given project, by id or by name (issue types are per project here). */
export function resolveIssueType(site: Site, project: Project, value: unknown): Resolved<IssueType> {
  const ref = readRef(value);
  if (!ref) return fail(NOT_AN_OBJECT);
  if (ref.id === undefined && ref.name === undefined) return fail(MISSING_ISSUE_TYPE);
  const types = projectIssueTypes(site, project.id);
  const found =
    (ref.id !== undefined && types.find((t) => t.id === ref.id)) ||
    (ref.name !== undefined &&
      (types.find((t) => t.name === ref.name) ??
        types.find((t) => t.name.toLowerCase() === ref.name!.toLowerCase())));
  return found ? ok(found) : fail(INVALID_ISSUE_TYPE);
}

/** A priority id, by `{id}` or `{name}` (names ignore case). */
export function resolvePriority(value: unknown): Resolved<string> {
  const ref = readRef(value);
  if (!ref) return fail(value === null ? INVALID_PRIORITY : NOT_AN_OBJECT);
  const found =
    (ref.id !== undefined && PRIORITIES.find((p) => p.id === ref.id)) ||
    (ref.name !== undefined && PRIORITIES.find((p) => p.name.toLowerCase() === ref.name!.toLowerCase()));
  return found ? ok(found.id) : fail(INVALID_PRIORITY);
}

/**
 * A user reference for assignee or reporter: `{accountId}` (the spec's examples also use `{id}`),
 * `null` for nobody, and for the assignee `"-1"` for the project's default assignee (its lead).
 */
export function resolveUser(
  site: Site,
  value: unknown,
  role: "assignee" | "reporter",
  project: Project | undefined,
): Resolved<string | null> {
  if (value === null) return ok(null);
  const ref = readRef(value);
  if (!ref) return fail(NOT_AN_OBJECT);
  const accountId = ref.accountId ?? ref.id;
  if (accountId === "-1" && role === "assignee" && project) return ok(project.leadAccountId);
  const user: JiraUser | undefined = accountId === undefined ? undefined : findUser(site, accountId);
  if (!user) return fail(UNKNOWN_USER);
  if (!user.active)
    return fail(role === "assignee" ? `User '${user.displayName}' cannot be assigned issues.` : UNKNOWN_USER);
  return ok(user.accountId);
}

/** A parent issue by `{key}` or `{id}`. */
export function resolveParent(site: Site, value: unknown): Resolved<Issue> {
  const ref = readRef(value);
  if (!ref) return fail(NOT_AN_OBJECT);
  const idOrKey = ref.key ?? ref.id;
  const issue = idOrKey === undefined ? undefined : findIssue(site, idOrKey);
  return issue ? ok(issue) : fail(PARENT_NOT_FOUND);
}

/** A resolution id by `{id}` or `{name}` (names ignore case). */
export function resolveResolution(value: unknown): Resolved<string> {
  const ref = readRef(value);
  if (!ref) return fail(NOT_AN_OBJECT);
  const found =
    (ref.id !== undefined && RESOLUTIONS.find((r) => r.id === ref.id)) ||
    (ref.name !== undefined && RESOLUTIONS.find((r) => r.name.toLowerCase() === ref.name!.toLowerCase()));
  return found ? ok(found.id) : fail(INVALID_RESOLUTION);
}
