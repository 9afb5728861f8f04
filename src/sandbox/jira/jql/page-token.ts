/**
 * nextPageToken for the enhanced JQL search: opaque to callers, it holds the offset of the next page
 * and a fingerprint of the query it was issued for, so a token replayed with another query (or made
 * up) is refused with a 400 instead of silently paging something else.
 */
import { createHash } from "node:crypto";
import { jiraError } from "../../api-error.ts";

export const INVALID_PAGE_TOKEN = "The provided nextPageToken is invalid or has expired.";

function fingerprint(jql: string): string {
  return createHash("sha256").update(jql.trim()).digest("base64url").slice(0, 16);
}

export function encodePageToken(jql: string, offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset, q: fingerprint(jql) })).toString("base64url");
}

/** The offset a token points at; throws Jira's 400 for a token that is malformed or for another query. */
export function decodePageToken(token: string, jql: string): number {
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    throw jiraError(400, [INVALID_PAGE_TOKEN]);
  }
  const { o, q } = (payload ?? {}) as { o?: unknown; q?: unknown };
  if (typeof o !== "number" || !Number.isSafeInteger(o) || o < 0 || q !== fingerprint(jql))
    throw jiraError(400, [INVALID_PAGE_TOKEN]);
  return o;
}
