/**
 * Shared-secret comparison in constant time, for the server's token and Basic API tokens (see
 * authorize.ts). Both sides are hashed first, so neither the content nor the length of the expected
 * secret leaks through timing.
 */
import { createHash, timingSafeEqual } from "node:crypto";

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether `given` equals `expected`, compared in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
