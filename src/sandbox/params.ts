/**
 * zod helpers for path and query parameters. Over HTTP every parameter arrives as a string (arrays
 * repeated or comma-separated, as jira.js and confluence.js send them); from tools they arrive as JSON
 * values. These schemas accept both and yield typed values.
 */
import { z } from "zod";

const toBoolean = (v: unknown) => (v === "true" ? true : v === "false" ? false : v);
const toList = (v: unknown) => {
  const items = Array.isArray(v) ? v : typeof v === "string" ? [v] : v;
  if (!Array.isArray(items)) return items;
  return items.flatMap((item) =>
    typeof item === "string"
      ? item
          .split(",")
          .map((s) => s.trim())
          .filter((s) => s !== "")
      : [item],
  );
};

/** An integer query parameter; chain `.min()` / `.max()` for bounds. */
export const qInt = () => z.coerce.number<unknown>().int();

/** A boolean query parameter (`true` / `false`). */
export const qBool = () => z.preprocess(toBoolean, z.boolean());

/** A list query parameter: repeated, comma-separated, or a JSON array. */
export const qList = <T extends z.ZodType>(item: T) => z.preprocess(toList, z.array(item));

/** A numeric id in a path or query (Confluence ids are int64 in paths, strings in bodies). */
export const numericId = () =>
  z.preprocess(
    (v) => (typeof v === "number" ? String(v) : v),
    z.string().regex(/^\d+$/, "must be a numeric id"),
  );
