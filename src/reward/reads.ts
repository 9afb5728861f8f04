/**
 * R2's reads: whether a successful read is about a given record. A read is about a record when its
 * request names it (an id or key among its path and query parameters) or its response holds it (an
 * object whose id, key or accountId is the record's); a search counts only by its response, so a search
 * for something else never validates.
 */
import type { Site, TableName } from "../sandbox/site.ts";

export interface RecordRef {
  table: TableName;
  id: string;
}

export interface ReadCall {
  operationId: string | null;
  input: { params: Record<string, unknown>; body: unknown } | null;
  body: unknown;
}

/** The ids and keys a record is known by, and those of the record it belongs to (a label's page). */
export function identities(site: Site, ref: RecordRef): string[] {
  const record = site.get(ref.table, ref.id) as Record<string, unknown> | undefined;
  const own = [ref.id];
  if (!record) return own;
  for (const field of ["key", "accountId"])
    if (typeof record[field] === "string") own.push(record[field] as string);
  const owners: RecordRef[] = [];
  if (typeof record.issueId === "string") owners.push({ table: "issues", id: record.issueId });
  if (typeof record.pageId === "string") owners.push({ table: "pages", id: record.pageId });
  if (ref.table === "pageLabels" && typeof record.labelId === "string") own.push(record.labelId);
  return [...own, ...owners.flatMap((o) => identities(site, o))];
}

const norm = (v: unknown) => String(v).trim().toUpperCase();

/** Whether a successful read's request names, or its response holds, one of these identities. */
export function readIsAbout(call: ReadCall, ids: readonly string[]): boolean {
  const wanted = new Set(ids.map(norm));
  const isSearch = /search/i.test(call.operationId ?? "");
  if (!isSearch && call.input && paramValues(call.input.params).some((v) => wanted.has(norm(v)))) return true;
  return holds(call.body, wanted, 0);
}

function paramValues(params: Record<string, unknown>): string[] {
  return Object.values(params).flatMap((v) => {
    if (Array.isArray(v)) return v.map(String);
    if (typeof v === "string") return v.split(",");
    if (typeof v === "number") return [String(v)];
    return [];
  });
}

function holds(value: unknown, wanted: ReadonlySet<string>, depth: number): boolean {
  if (depth > 8 || value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) return value.some((v) => holds(v, wanted, depth + 1));
  const o = value as Record<string, unknown>;
  for (const field of ["id", "key", "accountId"]) {
    const v = o[field];
    if ((typeof v === "string" || typeof v === "number") && wanted.has(norm(v))) return true;
  }
  return Object.values(o).some((v) => holds(v, wanted, depth + 1));
}
