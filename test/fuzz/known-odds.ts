/**
 * Answers the fuzzer finds that another change fixes: each class is named here with the fix that is
 * coming, and excused only while that fix is not merged (remove the entry with it).
 */
import type { Endpoint } from "../../src/sandbox/presentation.ts";
import type { FuzzRequest } from "./request-arbitrary.ts";

interface Odd {
  reason: string;
  /** Whether a broken property (`problem`, as the fuzzer words it) is this class. */
  matches(endpoint: Endpoint, req: FuzzRequest, problem: string): boolean;
}

// Empty: the one class found so far (v1 space descriptions without embeddedContent) was reward22b's, merged.
const ODDS: Odd[] = [];

/** The known odd class a broken property belongs to, if any. */
export function knownOdd(endpoint: Endpoint, req: FuzzRequest, problem: string): string | null {
  return ODDS.find((odd) => odd.matches(endpoint, req, problem))?.reason ?? null;
}
