/**
 * diff(before, after): the records a change created, updated or deleted, table by table (AppWorld's
 * `changed_records`). Thanks to structural sharing, unchanged records are the same object in both
 * sites and are skipped without a deep comparison.
 */
import { DERIVED_TABLES, type Site, type SiteRecords, TABLE_NAMES, type TableName } from "./site.ts";
import { stableStringify } from "./stable-stringify.ts";

export type RecordChange = {
  [K in TableName]:
    | { kind: "created"; table: K; id: string; after: SiteRecords[K] }
    | {
        kind: "updated";
        table: K;
        id: string;
        before: SiteRecords[K];
        after: SiteRecords[K];
        fields: string[];
      }
    | { kind: "deleted"; table: K; id: string; before: SiteRecords[K] };
}[TableName];

export function diff(before: Site, after: Site): RecordChange[] {
  const changes: RecordChange[] = [];
  for (const table of TABLE_NAMES) {
    if (DERIVED_TABLES.has(table)) continue;
    for (const [id, next] of after.entries(table)) {
      const prev = before.get(table, id);
      if (prev === undefined) changes.push({ kind: "created", table, id, after: next } as RecordChange);
      else if (prev !== next) {
        const fields = changedFields(prev, next);
        if (fields.length > 0)
          changes.push({ kind: "updated", table, id, before: prev, after: next, fields } as RecordChange);
      }
    }
    for (const [id, prev] of before.entries(table)) {
      if (after.get(table, id) === undefined)
        changes.push({ kind: "deleted", table, id, before: prev } as RecordChange);
    }
  }
  return changes;
}

function changedFields(prev: unknown, next: unknown): string[] {
  if (typeof prev !== "object" || typeof next !== "object" || prev === null || next === null) {
    return stableStringify(prev) === stableStringify(next) ? [] : ["value"];
  }
  const keys = new Set([...Object.keys(prev), ...Object.keys(next)]);
  return [...keys]
    .filter(
      (k) =>
        stableStringify((prev as Record<string, unknown>)[k]) !==
        stableStringify((next as Record<string, unknown>)[k]),
    )
    .sort();
}
