/**
 * Rebinding a workflow step's expected values: a bound step was generated against the record an earlier
 * step's reference made on the generation site; at run time (or on another replay) that record has the
 * id and key the site returned then. `rebind` swaps every value naming the old record (a string equal to
 * its id, or its key as a whole word inside a string: "ENG-31: Fix login") for the new one. Keys are
 * `[A-Z][A-Z0-9]*-<n>`, so they need no escaping in a pattern.
 */

/** A record a step created: its table, id and (issues) key. */
export interface MadeRecord {
  table: "issues" | "pages";
  id: string;
  key?: string;
}

/** Old record → new record, for every producing step replayed so far. */
export type Rebinding = readonly { from: MadeRecord; to: MadeRecord }[];

function rebindString(value: string, pairs: Rebinding): string {
  for (const { from, to } of pairs) {
    if (value === from.id) return to.id;
    if (from.key && to.key && from.key !== to.key)
      value = value.replace(new RegExp(`(?<![A-Za-z0-9-])${from.key}(?![0-9])`, "g"), to.key);
  }
  return value;
}

/** A deep copy of `value` with every mention of a rebound record updated (plain JSON data). */
export function rebind<T>(value: T, pairs: Rebinding): T {
  const moved = pairs.filter((p) => p.from.id !== p.to.id || p.from.key !== p.to.key);
  if (moved.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return rebindString(v, moved);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** The record a step's calls created in `table`: the body of its first successful create there. */
export function madeBy(
  results: readonly { ok: boolean; operationId: string | null; body: unknown }[],
  table: MadeRecord["table"],
): MadeRecord | undefined {
  const op = table === "issues" ? "createIssue" : "createPage";
  const hit = results.find((r) => r.ok && r.operationId === op);
  if (!hit) return undefined;
  const body = hit.body as { id: string | number; key?: string };
  return { table, id: String(body.id), ...(body.key ? { key: body.key } : {}) };
}
