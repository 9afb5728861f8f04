/**
 * Shared-secret checks in constant time: the bearer token of the env server and MCP endpoint, and the
 * API token of Basic auth. Both sides are hashed first, so neither the content nor the length of the
 * expected secret leaks through timing.
 */
import { createHash, timingSafeEqual } from "node:crypto";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether `given` equals `expected`, compared in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** How an Authorization header stands against a bearer token. */
export type BearerCheck = "ok" | "missing" | "wrong";

/** Checks `Authorization: Bearer <token>` (any token passes when none is configured). */
export function checkBearer(
  header: string | null | undefined,
  token: string | null | undefined,
): BearerCheck {
  if (!token) return "ok";
  if (!header) return "missing";
  const given = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? "";
  return sameSecret(given, token) ? "ok" : "wrong";
}
