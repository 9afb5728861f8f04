/**
 * zod helpers for path and query parameters. Over HTTP every parameter arrives as a string (arrays
 * repeated or comma-separated, as jira.js and confluence.js send them); from tools they arrive as JSON
 * values. These schemas accept both and yield typed values.
 */
import { z } from "zod";

/**
 * A boolean query parameter as Jira reads it (a Java `boolean` parameter, parsed by `Boolean.valueOf`):
 * `true` in any case is true and every other string (`false`, `yes`, `1`, empty) is false; of a repeated
 * parameter the first value counts. Booleans from tools pass as they are; other JSON values stay invalid.
 */
const toBoolean = (v: unknown) => {
  const first = Array.isArray(v) && v.length > 0 && v.every((item) => typeof item === "string") ? v[0] : v;
  return typeof first === "string" ? first.toLowerCase() === "true" : first;
};
const toList = (v: unknown) => {
  const items = Array.isArray(v) ? v : typeof v === "string" ? [v] : v;
  if (!Array.isArray(items)) return items;
  // A loop, not flatMap/map/filter: this runs on every read that lists fields (a hot path).
  const list: unknown[] = [];
  for (const item of items) {
    if (typeof item !== "string") list.push(item);
    else
      for (const part of item.split(",")) {
        const name = part.trim();
        if (name !== "") list.push(name);
      }
  }
  return list;
};

/**
 * A number as a parameter or body field carries one: itself, or a string of decimal digits (query
 * parameters all arrive as strings; of a repeated one the first counts; an empty one reads as 0). Anything else passes as it is,
 * for the number schema to refuse: a boolean, null, an object or a list is no number to Jira's or
 * Confluence's JSON reader, where `Number()` would read `true` as 1 and `null` or `[]` as 0.
 */
const toNumber = (v: unknown) => {
  const first = Array.isArray(v) && v.length > 0 && typeof v[0] === "string" ? v[0] : v;
  if (typeof first !== "string") return first;
  // Decimal digits only, as Java parses them: `0x10`, `1e3` or `Infinity` is no number there.
  return DECIMAL.test(first) || first.trim() === "" ? Number(first) : Number.NaN;
};
const DECIMAL = /^\s*[+-]?\d+(\.\d*)?\s*$/;

/** An integer parameter (see toNumber); pipe it into `z.number()` checks for bounds. */
export const qInt = () => z.preprocess(toNumber, z.number().int());

const INT32 = "must be a 32-bit integer (at most 2147483647)";

/** An int32 parameter (offsets and page sizes, as the published documents type them). */
export const qInt32 = () =>
  z.preprocess(toNumber, z.number().int().min(-2147483648, INT32).max(2147483647, INT32));

/** A boolean query parameter, read leniently as Jira reads it (see toBoolean); never a 400. */
export const qBool = () => z.preprocess(toBoolean, z.boolean());

/** A list query parameter: repeated, comma-separated, or a JSON array. */
export const qList = <T extends z.ZodType>(item: T) => z.preprocess(toList, z.array(item));

/**
 * A record id in a Jira or Confluence v1 path, looked up as given: those APIs answer an id that is not a
 * number (`comment/abc`, `content/abc/label`) as they answer one that names nothing, with their own 404
 * from the lookup, never a 400. Confluence v2 validates its int64 path ids instead (numericId).
 */
export const lookupId = () =>
  z.preprocess((v) => (typeof v === "number" ? String(v) : v), z.string().min(1, "is required"));

const NUMERIC = /^\d+$/;

/** Whether an id is a string of digits (Confluence's int64 ids as they travel). */
export function isNumericId(id: string): boolean {
  return NUMERIC.test(id);
}

/** A numeric id in a path or query (Confluence v2 ids are int64 in paths, strings in bodies). */
export const numericId = () =>
  z.preprocess(
    (v) => (typeof v === "number" ? String(v) : v),
    z.string().regex(NUMERIC, "must be a numeric id"),
  );
