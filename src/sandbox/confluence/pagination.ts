/**
 * Cursor pagination for Confluence v2 lists. The cursor is opaque to callers (base64url of an offset);
 * `_links.next` is a relative URL that starts with `/wiki/...` and repeats the request's filters, so a
 * client whose host is the site base (including an `/s/<id>` prefix) can follow it unchanged.
 */
import { z } from "zod";
import { confluenceError } from "../api-error.ts";
import { qInt } from "../params.ts";

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 250;

/** The `limit` query parameter of every v2 list: 1..250, default 25. */
export const limitParam = () =>
  qInt()
    .pipe(
      z
        .number()
        .min(1, `limit must be between 1 and ${MAX_LIMIT}`)
        .max(MAX_LIMIT, `limit must be between 1 and ${MAX_LIMIT}`),
    )
    .optional()
    .describe(`Maximum number of results per page (1-${MAX_LIMIT}, default ${DEFAULT_LIMIT}).`);

/** The `cursor` query parameter of every v2 list. */
export const cursorParam = () =>
  z
    .string()
    .optional()
    .describe(
      "Opaque cursor from the `cursor=` value of the previous response's `_links.next`; omit for the first page.",
    );

export interface PageOfResults<T> {
  results: T[];
  _links: { next?: string; base: string };
}

export function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString("base64url");
}

/** The offset a cursor stands for; a cursor this site did not issue is a 400. */
export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === "") return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) throw confluenceError(400, `Invalid cursor: ${cursor}`, "INVALID_REQUEST_PARAMETER");
  return Number(match[1]);
}

export interface PaginateOptions {
  /** Parsed `cursor` and `limit`. */
  cursor?: string | undefined;
  limit?: number | undefined;
  /** The request path with ids filled in, e.g. `/wiki/api/v2/spaces/98305/pages`. */
  path: string;
  /** The request's other query parameters, repeated in `_links.next`. */
  query: Record<string, unknown>;
  /** `${ctx.baseUrl}/wiki`. */
  base: string;
}

/** One page of `items` with `_links.next` when more remain. */
export function paginate<T>(items: readonly T[], options: PaginateOptions): PageOfResults<T> {
  const offset = decodeCursor(options.cursor);
  const limit = options.limit ?? DEFAULT_LIMIT;
  const results = items.slice(offset, offset + limit);
  const more = offset + limit < items.length;
  const links: PageOfResults<T>["_links"] = more
    ? { next: nextLink(options.path, options.query, offset + limit, limit), base: options.base }
    : { base: options.base };
  return { results, _links: links };
}

/** `path?<filters>&cursor=...&limit=N`; arrays are comma-joined (every list parameter accepts that). */
export function nextLink(
  path: string,
  query: Record<string, unknown>,
  offset: number,
  limit: number,
): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || key === "cursor" || key === "limit") continue;
    search.set(key, Array.isArray(value) ? value.join(",") : String(value));
  }
  search.set("cursor", encodeCursor(offset));
  search.set("limit", String(limit));
  return `${path}?${search.toString()}`;
}

/** The query part of parsed params: everything except the named path parameters. */
export function queryOf(params: Record<string, unknown>, ...pathKeys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([key]) => !pathKeys.includes(key)));
}
