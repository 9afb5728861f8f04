/**
 * The lock on every door of `atlas-gym serve`: one fetch wrapper in front of everything the server
 * answers (env server, REST facade at the root and under `/s/<id>`, MCP, and any route added later), so
 * no route can be reached without passing the one auth decision (src/http/authorize.ts). A refused
 * request is answered 401 in its surface's own shape (the vendor's error body on REST, `{error, code}` on
 * `/v1`, a JSON-RPC error on `/mcp`) and changes nothing. `GET /health` stays open for liveness probes but
 * tells an unauthenticated caller only that the server is up.
 *
 * The server's token opens every door. A session's API token (`rest_api_token` of its opening, see
 * src/http/session-token.ts) opens only that session's own doors, its site `/s/<id>/...` and `/mcp` bound
 * to it (session-scope.ts): what an agent's tools are given, so that they cannot reach the trainer's
 * `/v1` (the trace holds the expectation), other sessions, or other sites.
 *
 * What a session's token was let through for is marked (`agentRequest`): the parts behind the gate that
 * hold the trainer's view of a session (MCP's score resource) keep it from the agent.
 *
 * A server without a token or credentials (loopback only) still refuses, 403 in the same shapes, what a
 * web page could have sent it: DNS rebinding and cross-site writes (src/http/foreign-request.ts). With
 * credentials, a write that passed on Basic auth is refused the same way when a page on another origin
 * sent it: a browser sends Basic credentials it has saved on its own (every 401 here asks for them), so a
 * page could otherwise post with them. A bearer token no browser sends unasked.
 */
import { getPath } from "hono/utils/url";
import {
  type AuthDecision,
  type AuthPolicy,
  authorize,
  isLocked,
  VENDOR_UNAUTHENTICATED,
} from "../http/authorize.ts";
import { vendorErrorResponse } from "../http/dialect.ts";
import { refuseForeignRequests, refusePageSentBasicWrites } from "../http/foreign-request.ts";
import { rememberAccepted } from "../http/remembered-auth.ts";
import { pathOf } from "../http/url-parts.ts";
import { VERSION } from "../version.ts";
import { sessionScope } from "./session-scope.ts";
import { type Surface, surfaceOf } from "./surfaces.ts";

type Fetch = (request: Request) => Response | Promise<Response>;

/** The path a refusal names: on REST the one the router reads (percent-decoded), which picks the dialect. */
function refusedPath(request: Request, surface: Surface): string {
  return surface === "rest" ? getPath(request) : pathOf(request.url);
}

/** Requests let through on a session's API token alone (an agent's), not on the server's credentials. */
const AGENT_REQUESTS = new WeakSet<Request>();

/** Whether the gate let `request` through on a session's API token only (see above). */
export function agentRequest(request: Request): boolean {
  return AGENT_REQUESTS.has(request);
}

/** Most sessions whose accepted headers the gate keeps at once (started over when full). */
const MAX_SCOPES = 1024;

/**
 * Wraps a fetch handler so that every request passes the auth decision first (`publicUrl`: the server's
 * `--base-url`, whose host a token-less server answers too).
 */
export function gateRequests(policy: AuthPolicy, fetch: Fetch, publicUrl?: string | null): Fetch {
  if (!isLocked(policy))
    return refuseForeignRequests(
      fetch,
      (request, message) => {
        const surface = surfaceOf(pathOf(request.url));
        return forbidden(surface, refusedPath(request, surface), message);
      },
      publicUrl,
    );
  const { token } = policy;
  const guarded = refusePageSentBasicWrites(fetch, (request, message) => {
    const surface = surfaceOf(pathOf(request.url));
    return forbidden(surface, refusedPath(request, surface), message);
  });
  const decide = rememberAccepted((header) => authorize(header, policy));
  const scopes = new Map<string, ReturnType<typeof rememberAccepted<AuthDecision>>>();
  const decideIn = (session: string) => {
    let scoped = scopes.get(session);
    if (scoped === undefined) {
      if (scopes.size >= MAX_SCOPES) scopes.clear();
      scoped = rememberAccepted((header) => authorize(header, policy, session));
      scopes.set(session, scoped);
    }
    return scoped;
  };
  return (request) => {
    const header = request.headers.get("authorization");
    let decision = decide(header);
    // Not the server's credentials: a session's API token, within that session's scope only.
    if (!decision.ok && token) {
      const session = sessionScope(request);
      if (session !== null) decision = decideIn(session)(header);
      if (decision.ok) AGENT_REQUESTS.add(request);
    }
    if (decision.ok) return guarded(request);
    const surface = surfaceOf(pathOf(request.url));
    return refusal(surface, refusedPath(request, surface), decision.reason, decision.hint);
  };
}

/** The words of a refusal on the env server's own surfaces. */
export function refusalMessage(reason: "missing" | "wrong", hint: string): string {
  return `${reason === "missing" ? "This server requires credentials" : "The credentials are wrong"}: ${hint}.`;
}

/** A JSON answer of the env server's own surfaces. */
function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json;charset=UTF-8", ...headers },
  });
}

/** The 403 answer of a surface (health included: a foreign request learns nothing). */
export function forbidden(surface: Surface, path: string, message: string): Response {
  if (surface === "rest") return vendorErrorResponse(path, 403, message);
  return json(
    403,
    surface === "mcp"
      ? { jsonrpc: "2.0", error: { code: -32001, message }, id: null }
      : { error: message, code: "forbidden" },
  );
}

/** The 401 answer of a surface. */
export function refusal(surface: Surface, path: string, reason: "missing" | "wrong", hint: string): Response {
  const challenge = { "www-authenticate": 'Bearer realm="atlas-gym", Basic realm="atlas-gym"' };
  switch (surface) {
    case "health":
      return json(200, { status: "ok", version: VERSION });
    case "env":
      return json(401, { error: refusalMessage(reason, hint), code: "unauthorized" }, challenge);
    case "mcp":
      return json(
        401,
        { jsonrpc: "2.0", error: { code: -32001, message: `Unauthorized: ${hint}.` }, id: null },
        challenge,
      );
    case "rest":
      return vendorErrorResponse(path, 401, VENDOR_UNAUTHENTICATED, challenge);
  }
}
