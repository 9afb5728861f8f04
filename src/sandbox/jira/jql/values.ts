/**
 * Resolving the values a query names to the site's records, the way Jira's name resolvers do: an
 * unquoted number is tried as an id first, anything else as a name (case-insensitively) first. A value
 * that names nothing is Jira's "does not exist" message, added to ctx.errors.
 */
import { PRIORITIES, RESOLUTIONS, STATUS_CATEGORIES, STATUSES } from "../catalog.ts";
import { findIssue } from "../store.ts";
import type { ValueOperand } from "./ast.ts";
import type { JqlContext } from "./context.ts";
import { semantic } from "./errors.ts";

type Resolved = string[] | "empty" | undefined;

function byNameOrId<T>(
  item: ValueOperand,
  field: string,
  ctx: JqlContext,
  candidates: readonly T[],
  id: (candidate: T) => string,
  names: (candidate: T) => string[],
): Resolved {
  const lower = item.text.toLowerCase();
  const byId = candidates.filter((c) => id(c) === item.text);
  const byName = candidates.filter((c) => names(c).some((n) => n.toLowerCase() === lower));
  const numeric = !item.quoted && /^\d+$/.test(item.text);
  const found = numeric ? (byId.length > 0 ? byId : byName) : byName.length > 0 ? byName : byId;
  if (found.length > 0) return [...new Set(found.map(id))];
  ctx.errors.push(numeric ? semantic.noId(item.text, field) : semantic.noValue(item.text, field));
  return undefined;
}

export const resolveProject = (item: ValueOperand, field: string, ctx: JqlContext): Resolved =>
  byNameOrId(
    item,
    field,
    ctx,
    [...ctx.site.values("projects")],
    (p) => p.id,
    (p) => [p.key, p.name],
  );

/** Issue types are per project here; a name matches that type in every project that has it. */
export const resolveIssueType = (item: ValueOperand, field: string, ctx: JqlContext): Resolved =>
  byNameOrId(
    item,
    field,
    ctx,
    [...ctx.site.values("issueTypes")],
    (t) => t.id,
    (t) => [t.name],
  );

export const resolveStatus = (item: ValueOperand, field: string, ctx: JqlContext): Resolved =>
  byNameOrId(
    item,
    field,
    ctx,
    STATUSES,
    (s) => s.id,
    (s) => [s.name],
  );

export const resolveStatusCategory = (item: ValueOperand, field: string, ctx: JqlContext): Resolved =>
  byNameOrId(
    item,
    field,
    ctx,
    STATUS_CATEGORIES,
    (c) => String(c.id),
    (c) => [c.name, c.key],
  );

export const resolvePriority = (item: ValueOperand, field: string, ctx: JqlContext): Resolved =>
  byNameOrId(
    item,
    field,
    ctx,
    PRIORITIES,
    (p) => p.id,
    (p) => [p.name],
  );

/** `Unresolved` is the resolution field's name for EMPTY. */
export function resolveResolution(item: ValueOperand, field: string, ctx: JqlContext): Resolved {
  const named = RESOLUTIONS.some((r) => r.name.toLowerCase() === item.text.toLowerCase());
  if (!named && item.text.toLowerCase() === "unresolved") return "empty";
  return byNameOrId(
    item,
    field,
    ctx,
    RESOLUTIONS,
    (r) => r.id,
    (r) => [r.name],
  );
}

/** Users are named by accountId (Jira Cloud no longer resolves user names or e-mail addresses in JQL). */
export function resolveUser(item: ValueOperand, field: string, ctx: JqlContext): Resolved {
  if (ctx.site.get("users", item.text)) return [item.text];
  ctx.errors.push(semantic.noValue(item.text, field));
  return undefined;
}

/** For fields whose values the site has none of (components, versions). */
export function resolveNothing(item: ValueOperand, field: string, ctx: JqlContext): Resolved {
  ctx.errors.push(semantic.noValue(item.text, field));
  return undefined;
}

/** Labels are free text, matched case-insensitively. */
export const resolveLabel = (item: ValueOperand): Resolved => [item.text.toLowerCase()];

/** An issue by key (any case) or numeric id, for `key` and `parent`. */
export function resolveIssue(item: ValueOperand, field: string, ctx: JqlContext): Resolved {
  const text = item.text.trim();
  if (!/^\d+$/.test(text) && !/^[A-Za-z][A-Za-z0-9_]*-\d+$/.test(text)) {
    ctx.errors.push(semantic.badKey(item.text, field));
    return undefined;
  }
  const issue = findIssue(ctx.site, text);
  if (issue) return [issue.id];
  ctx.errors.push(semantic.noIssue(item.text, field));
  return undefined;
}

/** Where a priority stands: Highest is the greatest (`priority > Medium` is High and Highest). */
export const priorityRank = (id: string): [string, number] | undefined => {
  const index = PRIORITIES.findIndex((p) => p.id === id);
  return index < 0 ? undefined : ["", -index];
};

export const resolutionRank = (id: string): [string, number] | undefined => {
  const index = RESOLUTIONS.findIndex((r) => r.id === id);
  return index < 0 ? undefined : ["", index];
};

/** Issue keys compare within their project by number (`key > ENG-5`). */
export function issueRank(id: string, ctx: JqlContext): [string, number] | undefined {
  const issue = ctx.site.get("issues", id);
  return issue ? [issue.projectId, keyNumber(issue.key)] : undefined;
}

export const keyNumber = (key: string) => Number(key.slice(key.lastIndexOf("-") + 1));
