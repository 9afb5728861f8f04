/**
 * R2's reads: whether a successful read is about a given record. A read is about a record when its
 * request names it (an id or key among its path and query parameters) or its response holds it (an
 * object that is that record: the issue, project or space with its key, the user with its accountId, the
 * page, label, link or comment with its id and a field of its kind); a search counts only by its
 * response, so a search for something else never validates. A record's owner counts too (a label's page,
 * a remote link's or comment's issue).
 *
 * For a task that must be declined, a decisive search counts too: a search or filtered listing whose
 * query names each missing thing (a CQL/JQL string, a title or label filter) and that finds nothing.
 */
import type { Site, TableName } from "../sandbox/site.ts";
import { namesThing } from "./decline.ts";

export interface RecordRef {
  table: TableName;
  id: string;
}

export interface ReadCall {
  operationId: string | null;
  input: { params: Record<string, unknown>; body: unknown } | null;
  body: unknown;
}

/** How a record shows in a response: this field holds `value` (and the object has a field `shape`). */
export interface Identity {
  field: "id" | "key" | "accountId";
  value: string;
  shape?: string;
}

/** What a record's kind looks like in a response (a field every presented object of the table has). */
const SHAPE: Partial<Record<TableName, string>> = {
  pages: "title",
  pageLabels: "name",
  remoteLinks: "object",
  comments: "body",
  issueTypes: "name",
};

/** The identities of a record and of the records it belongs to (a label's page, a link's issue). */
export function identities(site: Site, ref: RecordRef): Identity[] {
  const record = site.get(ref.table, ref.id) as Record<string, unknown> | undefined;
  if (!record) return [{ field: "id", value: ref.id, shape: SHAPE[ref.table] }];
  const own: Identity[] =
    typeof record.key === "string"
      ? [{ field: "key", value: record.key }]
      : typeof record.accountId === "string"
        ? [{ field: "accountId", value: record.accountId }]
        : [
            {
              field: "id",
              value: ref.table === "pageLabels" ? String(record.labelId) : ref.id,
              shape: SHAPE[ref.table],
            },
          ];
  const owners: RecordRef[] = [];
  if (typeof record.issueId === "string") owners.push({ table: "issues", id: record.issueId });
  if (typeof record.pageId === "string") owners.push({ table: "pages", id: record.pageId });
  const named = typeof record.key === "string" ? [{ field: "id" as const, value: ref.id, shape: "key" }] : [];
  return [...own, ...named, ...owners.flatMap((o) => identities(site, o))];
}

const norm = (v: unknown) => String(v).trim().toUpperCase();

/** Whether a successful read's request names, or its response holds, one of these identities. */
export function readIsAbout(call: ReadCall, ids: readonly Identity[]): boolean {
  const isSearch = /search/i.test(call.operationId ?? "");
  if (!isSearch && call.input) {
    const named = new Set(ids.map((i) => norm(i.value)));
    if (paramValues(call.input.params).some((v) => named.has(norm(v)))) return true;
  }
  return holds(call.body, ids, 0);
}

function paramValues(params: Record<string, unknown>): string[] {
  return Object.values(params).flatMap((v) => {
    if (Array.isArray(v)) return v.map(String);
    if (typeof v === "string") return v.split(",");
    if (typeof v === "number") return [String(v)];
    return [];
  });
}

function holds(value: unknown, ids: readonly Identity[], depth: number): boolean {
  if (depth > 8 || value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((v) => holds(v, ids, depth + 1));
  const o = value as Record<string, unknown>;
  const is = (i: Identity) => {
    const v = o[i.field];
    return (
      (typeof v === "string" || typeof v === "number") &&
      norm(v) === norm(i.value) &&
      (!i.shape || i.shape in o)
    );
  };
  return ids.some(is) || Object.values(o).some((v) => holds(v, ids, depth + 1));
}

/** The listings a search or filtered read answers with (Jira `issues`/`values`, Confluence `results`). */
const LISTS = ["results", "issues", "values"] as const;

/**
 * Whether a successful read is a decisive search for a task that must be declined: its request's query
 * or filter values name every one of `names` (as the decline rule names them) and its answer lists
 * nothing. A search whose query does not name the missing thing proves nothing.
 */
export function isDecisiveSearch(call: ReadCall, names: readonly string[]): boolean {
  if (names.length === 0 || !call.input) return false;
  const body = call.body as Record<string, unknown> | null;
  if (body === null || typeof body !== "object" || Array.isArray(body)) return false;
  const lists = LISTS.filter((k) => Array.isArray(body[k]));
  // A count (Jira's approximate-count answers `{count}`) of zero is as decisive as an empty listing.
  const counted = lists.length === 0 && typeof body.count === "number";
  if (counted ? body.count !== 0 : lists.length === 0 || lists.some((k) => (body[k] as unknown[]).length > 0))
    return false;
  const asked = [...paramValues(call.input.params), ...stringsOf(call.input.body)].join(" \n ");
  return names.every((n) => namesThing(asked, n));
}

function stringsOf(body: unknown): string[] {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return [];
  return Object.values(body).filter((v): v is string => typeof v === "string");
}
