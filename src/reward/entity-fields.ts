/**
 * Field classes per site table, for comparing records the way a reader of the site would: bookkeeping
 * fields (ids, keys, timestamps, version metadata, positions) are ignored; rich-text fields compare by
 * their visible text; set-valued fields compare as sorted sets; every other field is a value, and a
 * nested plain object (a remote link's `object`) is flattened into dotted paths (`object.url`).
 */
import type { SiteRecords, TableName } from "../sandbox/site.ts";
import { richText } from "./visible-text.ts";

export type FieldClass = "bookkeeping" | "rich" | "set" | "value";

interface TableFields {
  bookkeeping: readonly string[];
  rich?: readonly string[];
  set?: readonly string[];
}

/** Every table's non-value fields; a field not listed is a value. */
const FIELDS: { [K in TableName]: TableFields } = {
  users: { bookkeeping: ["accountId"] },
  projects: { bookkeeping: ["id"] },
  issueTypes: { bookkeeping: ["id"] },
  issues: {
    bookkeeping: ["id", "key", "created", "updated", "statusCategoryChangeDate", "resolutionDate"],
    rich: ["description", "environment"],
    set: ["labels"],
  },
  comments: { bookkeeping: ["id", "created", "updated", "updateAuthorId"], rich: ["body"] },
  issueLinks: { bookkeeping: ["id"] },
  remoteLinks: { bookkeeping: ["id"] },
  spaces: { bookkeeping: ["id", "createdAt"] },
  pages: { bookkeeping: ["id", "createdAt", "position", "version"], rich: ["body"] },
  pageLabels: { bookkeeping: ["labelId"] },
  issueHistory: { bookkeeping: ["issueId", "changes"] },
  issueKeys: { bookkeeping: [] },
  labelIds: { bookkeeping: [] },
};

export function fieldClass(table: TableName, field: string): FieldClass {
  const top = field.split(".")[0]!;
  const f = FIELDS[table];
  if (f.bookkeeping.includes(top)) return "bookkeeping";
  if (f.rich?.includes(top)) return "rich";
  if (f.set?.includes(top)) return "set";
  return "value";
}

/** A comparable value: visible text for rich text, a sorted array for sets, the value otherwise. */
export function comparableField(table: TableName, field: string, value: unknown): unknown {
  const cls = fieldClass(table, field);
  if (cls === "rich") return richText(value);
  if (cls === "set") return Array.isArray(value) ? [...value].map(String).sort() : [];
  return value;
}

/**
 * The record as a flat map of comparable fields (bookkeeping left out, nested value objects flattened
 * into dotted paths), for comparing a record with its expectation and with the API's defaults.
 */
export function comparableRecord<K extends TableName>(
  table: K,
  record: SiteRecords[K] | undefined,
): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (record === undefined || record === null || typeof record !== "object") return out;
  const visit = (prefix: string, value: unknown) => {
    const cls = fieldClass(table, prefix);
    if (cls === "bookkeeping") return;
    if (cls === "value" && isPlainObject(value)) {
      for (const [k, v] of Object.entries(value)) visit(`${prefix}.${k}`, v);
      return;
    }
    out.set(prefix, comparableField(table, prefix, value));
  };
  for (const [k, v] of Object.entries(record as unknown as Record<string, unknown>)) visit(k, v);
  return out;
}

/** A field of a stored record by dotted path (`object.url`), as stored; undefined when absent. */
export function rawField(record: unknown, field: string): unknown {
  let current = record;
  for (const part of field.split(".")) {
    if (!isPlainObject(current)) return undefined;
    current = current[part];
  }
  return current;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
