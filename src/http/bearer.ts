/**
 * Shared-secret comparison in constant time, for the server's token and Basic API tokens (see
 * authorize.ts). Both sides are hashed first, so neither the content nor the length of the expected
 * secret leaks through timing.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { authorize } from "./authorize.ts";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether `given` equals `expected`, compared in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** How an Authorization header stands against the server's token (the one decision, see authorize.ts). */
export type BearerCheck = "ok" | "missing" | "wrong";

/** The auth decision for a token alone: a bearer token, or Basic auth with it as the API token. */
export function checkBearer(
  header: string | null | undefined,
  token: string | null | undefined,
): BearerCheck {
  const decision = authorize(header, { token });
  return decision.ok ? "ok" : decision.reason;
}
