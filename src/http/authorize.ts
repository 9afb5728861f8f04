/**
 * The one auth decision of the server: every surface that reads or changes state (the env server's
 * `/v1`, the REST facade at the root and under `/s/<id>` in every API version, MCP over HTTP, and any
 * route added beside them) asks `authorize` whether a request's `Authorization` header proves the caller
 * may use it. A caller proves it holds the server's token (`serve --token`) either as a bearer token
 * (`Authorization: Bearer <token>`, what the env-server clients send) or as the API token of Basic auth
 * (`Authorization: Basic base64(<email>:<token>)`, what real Jira/Confluence clients send: any site
 * user's email, which picks the acting user). With `serve --auth` the printed Basic credentials are
 * accepted too, and their API token as a bearer token (what the env-server clients send). With neither
 * configured, everything is open (the server then listens on loopback only).
 *
 * A session's API token (session-token.ts, derived from the server's token) is accepted the same two ways,
 * but only for a request within that session's scope (`session`: its site `/s/<id>/...`, or `/mcp` bound
 * to it; see src/server/session-scope.ts): it opens an agent's way to its own episode and nothing else,
 * not the trainer's `/v1` (whose trace holds the expectation), another session, or any other site.
 */
import { type Credentials, decodeBasic } from "./basic-auth.ts";
import { sameSecret } from "./bearer.ts";
import { sessionApiToken } from "./session-token.ts";

export interface AuthPolicy {
  /** The server's token (`--token`): accepted as a bearer token or as a Basic API token. */
  token?: string | null;
  /** The Basic credentials of `--auth`: accepted as they are. */
  credentials?: Credentials | null;
}

export type AuthDecision =
  | {
      ok: true;
      /** The email of Basic auth (it picks the acting user on the REST facade); null otherwise. */
      email: string | null;
      /** Set when the caller proved only a session's API token: the one session it may use. */
      session?: string;
    }
  | {
      ok: false;
      reason: "missing" | "wrong";
      /** What the caller should send instead, for the surface's own error message. */
      hint: string;
    };

/** Whether a policy asks for credentials at all. */
export function isLocked(policy: AuthPolicy): boolean {
  return Boolean(policy.token) || Boolean(policy.credentials);
}

/**
 * The decision for one request's `Authorization` header. `session` is the env session the request is
 * confined to (its scope), if any: only then is that session's API token accepted as well.
 */
export function authorize(
  header: string | null | undefined,
  policy: AuthPolicy,
  session?: string | null,
): AuthDecision {
  const basic = decodeBasic(header);
  if (!isLocked(policy)) return { ok: true, email: basic?.email ?? null };
  if (!header) return refuse("missing", policy);
  const { token, credentials } = policy;
  const bearer = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
  const secret = bearer ?? basic?.apiToken;
  if (secret === undefined) return refuse("wrong", policy);
  const email = basic?.email ?? null;
  if (token && sameSecret(secret, token)) return ok(email);
  if (token && session && sameSecret(secret, sessionApiToken(token, session)))
    return { ok: true, email, session };
  if (
    basic &&
    credentials &&
    basic.email === credentials.email &&
    sameSecret(basic.apiToken, credentials.apiToken)
  )
    return ok(basic.email);
  if (bearer !== undefined && credentials && sameSecret(bearer, credentials.apiToken)) return ok(null);
  return refuse("wrong", policy);
}

const ok = (email: string | null): AuthDecision => ({ ok: true, email });

function refuse(reason: "missing" | "wrong", policy: AuthPolicy): AuthDecision {
  const hint = policy.token
    ? "send Authorization: Bearer <token>, or Basic auth with the token as the API token (the server's --token)"
    : "send Basic auth with the email and API token printed by serve --auth, or that API token as a bearer token";
  return { ok: false, reason, hint };
}

/** Jira's and Confluence's own words for a refused request (the REST facade answers with them). */
export const VENDOR_UNAUTHENTICATED = "Client must be authenticated to access this resource.";
