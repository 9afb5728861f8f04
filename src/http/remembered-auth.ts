/**
 * An auth check that remembers what it accepted: the REST facade sees the same `Authorization` header on
 * request after request (one client, one API token), and deciding it afresh each time (base64, hashing
 * both secrets for the constant-time comparison) is a fixed cost per request. Used by the facade's own
 * check and by `serve`'s gate (src/server/auth-gate.ts). The decision is a function of the header alone for
 * a given policy, so an accepted header's decision is kept in a bounded map (started over when full) and
 * answered from there; a refused header is not kept (each refusal is decided afresh, and a stream of
 * wrong headers cannot push the accepted ones out).
 */
const DEFAULT_MAX_HEADERS = 256;

/** An `Authorization` header as read (absent: undefined from node, null from fetch Headers). */
type AuthHeader = string | null | undefined;

/** `check`, remembering the headers it accepted (at most `maxHeaders` of them). */
export function rememberAccepted<Decision extends { ok: boolean }>(
  check: (header: AuthHeader) => Decision,
  maxHeaders = DEFAULT_MAX_HEADERS,
): (header: AuthHeader) => Decision {
  const accepted = new Map<AuthHeader, Decision>();
  return (header) => {
    const known = accepted.get(header);
    if (known !== undefined) return known;
    const decision = check(header);
    if (decision.ok) {
      if (accepted.size >= maxHeaders) accepted.clear();
      accepted.set(header, decision);
    }
    return decision;
  };
}
