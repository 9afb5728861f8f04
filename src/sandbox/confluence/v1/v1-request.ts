/**
 * Shared plumbing of the Confluence v1 presentations: parsing a v1 request with v1's 400, and turning
 * a v2 operation's error answer into v1's error body (`{statusCode, data, message}`).
 */
import { z } from "zod";
import { confluenceV1Error } from "../../api-error.ts";
import type { OperationResult } from "../../execute.ts";
import { isNumericId, qInt } from "../../params.ts";
import { encodeCursor, MAX_LIMIT } from "../pagination.ts";

/** Parses a v1 request part, or throws v1's 400 naming the first problem. */
export function parseV1<T extends z.ZodType>(
  schema: T,
  value: unknown,
  part: "params" | "body",
): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0]!;
  const where = first.path.length > 0 ? `'${first.path.join(".")}' ` : "";
  throw confluenceV1Error(
    400,
    `Invalid ${part === "params" ? "parameter" : "request body"}: ${where}${first.message}`,
  );
}

/** A v2 error answer in v1's shape; `notFound` replaces v2's bare "Not Found". */
export function v1Failure(result: OperationResult, notFound?: string): OperationResult {
  const body = result.body as { errors?: { title?: string }[]; message?: string } | undefined;
  const title = body?.errors?.[0]?.title ?? body?.message ?? `HTTP ${result.status}`;
  const message = result.status === 404 && notFound ? notFound : title;
  const error = confluenceV1Error(result.status, message);
  return { ok: false, status: result.status, body: error.body, headers: result.headers };
}

/**
 * A v1 list's `limit`: at least 1; above v2's cap (a v1 list is read through v2), the cap ("this may be
 * restricted by fixed system limits", as the v1 document says: Cloud answers fewer, and says so in the
 * answer's `limit`).
 */
export const v1Limit = () =>
  qInt()
    .pipe(z.number().min(1))
    .transform((limit) => Math.min(limit, MAX_LIMIT));

/** The v2 cursor for a v1 `start` offset. */
export function cursorAt(start: number): string | undefined {
  return start > 0 ? encodeCursor(start) : undefined;
}

export const contentNotFound = (id: string) => `No content found with id: ContentId{id=${id}}`;

/**
 * A content id from a v1 path (parsed with lookupId), checked before the v2 operation sees it: one that
 * is not numeric names no content, so v1 answers its 404 rather than v2's 400.
 */
export function requireContentId(id: string): string {
  if (!isNumericId(id)) throw confluenceV1Error(404, contentNotFound(id));
  return id;
}
export const spaceNotFound = (key: string) => `No space with key : ${key}`;
