/**
 * Where the fleet router (`serve --workers N`) sends a request. A session lives in one worker, and its id
 * says which (`ses-w<k>-<uuid>`), so every later call on it (`/v1/sessions/<id>/...`, its site over REST
 * `/s/<id>/...`, an MCP session bound with `?session=<id>`) reaches that worker without the router
 * remembering anything: a restarted router routes the same way; so does a watcher's view of one session
 * (`/v1/live/sessions/<id>`). New sessions go round the workers, except one opened with an
 * `Idempotency-Key`: that starts at the worker the key names (a hash), so a retry with the same key reaches
 * the worker that knows it and gets the first answer, as from a single server; the scenario catalogue is the same on
 * every worker; `/health` and the session listings (`/v1/sessions`, `/v1/live/sessions`) are answered from
 * all of them. Free MCP sandboxes go round the workers too: a worker's MCP session ids say which it is
 * (`mcp-w<k>-<uuid>`), so each later request on one (its `mcp-session-id` header) reaches it. Other state
 * that is not a session's (the default site, isolated sites) has one fixed home, so it never diverges
 * between workers. The router decides where, never whether: every
 * request reaches a worker with its credentials untouched, and the worker makes the auth decision.
 * Routing reads the path as a single server does: which part of the server answers (env server, MCP, REST)
 * by the path as sent, and where within it by the path as Hono decodes it, so `/%73/<id>/...` reaches the
 * same worker as `/s/<id>/...`.
 */
import { randomUUID } from "node:crypto";
import { getPath } from "hono/utils/url";
import { SESSION_PREFIX } from "../sessions.ts";

export type FleetRoute =
  /** `GET /health`: every worker's health, summed. */
  | { to: "health" }
  /** `GET /v1/sessions`: every worker's sessions, listed together. */
  | { to: "sessions" }
  /** `GET /v1/live/sessions`: every worker's summaries for watchers, listed together. */
  | { to: "live" }
  /**
   * `POST /v1/sessions`, or a free MCP session's initialize: the next worker in turn that is not full; with
   * an Idempotency-Key, the workers in turn from the key's `home` (the same order for each retry).
   */
  | { to: "open"; home?: number }
  /** The scenario catalogue (the same on every worker): the next worker in turn. */
  | { to: "any" }
  /** One worker: a session's, an isolated site's home, or worker 0 for the default site. */
  | { to: "worker"; worker: number };

const TAGGED = new RegExp(`^${SESSION_PREFIX}w(\\d+)-`);
const MCP_TAGGED = /^mcp-w(\d+)-/;

/** A fresh MCP session id for fleet member `worker` (a free sandbox's `mcp-session-id`). */
export function workerMcpSessionId(worker: number): string {
  return `mcp-w${worker}-${randomUUID()}`;
}

/** A fresh session id for fleet member `worker`. */
export function workerSessionId(worker: number): string {
  return `${SESSION_PREFIX}w${worker}-${randomUUID()}`;
}

/** The worker a session id names, or null when it names none of `workers`. */
export function workerOfSession(id: string, workers: number): number | null {
  const match = TAGGED.exec(id);
  const worker = match ? Number(match[1]) : Number.NaN;
  return Number.isInteger(worker) && worker < workers ? worker : null;
}

/**
 * Where `method target` (the request's path and query) goes in a fleet of `workers` processes;
 * `mcpSessionId` and `idempotencyKey` are the request's `mcp-session-id` and `Idempotency-Key` headers, if any.
 */
export function routeRequest(
  method: string,
  target: string,
  workers: number,
  mcpSessionId?: string | null,
  idempotencyKey?: string | null,
): FleetRoute {
  // Which part answers, by the path as sent (as a single server's dispatch in start-gym-server.ts picks it).
  const sent = target.split(/[?#]/, 1)[0] || "/";
  const path = decodedPath(target);
  if (sent === "/mcp") {
    const bound = new URL(target, "http://fleet").searchParams.get("session");
    if (bound) return sessionHome(bound, workers);
    // A free sandbox: a new one (initialize, no session id yet) goes round; a known one to its worker.
    if (!mcpSessionId) return method === "POST" ? { to: "open" } : { to: "worker", worker: 0 };
    const tagged = MCP_TAGGED.exec(mcpSessionId);
    const worker = tagged ? Number(tagged[1]) : Number.NaN;
    return { to: "worker", worker: Number.isInteger(worker) && worker < workers ? worker : 0 };
  }
  if (/^\/(v1|health)(\/|$)/.test(sent)) {
    const route = envRoute(method, path, workers);
    // A keyed opening starts at one home, so that its retry meets the worker that remembers the key.
    return route.to === "open" && idempotencyKey
      ? { to: "open", home: hash(idempotencyKey) % workers }
      : route;
  }
  const site = /^\/s\/([^/]+)/.exec(path);
  if (site) {
    const id = decodeSegment(site[1]!);
    if (id.startsWith(SESSION_PREFIX)) return sessionHome(id, workers);
    return { to: "worker", worker: hash(id) % workers }; // an isolated site: always the same worker
  }
  return { to: "worker", worker: 0 }; // the default site lives on worker 0
}

/** The env server's routes (`/health`, `/v1/...`), by the decoded path. */
function envRoute(method: string, path: string, workers: number): FleetRoute {
  const read = method === "GET" || method === "HEAD";
  if (path === "/health" && read) return { to: "health" };
  if (path === "/v1/sessions") {
    if (read) return { to: "sessions" };
    if (method === "POST") return { to: "open" };
  }
  if (path === "/v1/live/sessions" && read) return { to: "live" };
  const session = /^\/v1\/(?:live\/)?sessions\/([^/]+)/.exec(path);
  if (session) return sessionHome(decodeSegment(session[1]!), workers);
  return path.startsWith("/v1/") ? { to: "any" } : { to: "worker", worker: 0 };
}

/** The path of `target` as Hono decodes it for routing (`getPath`): `%73` is `s`, `%2F` stays escaped. */
export function decodedPath(target: string): string {
  if (!target.startsWith("/")) return target.split(/[?#]/, 1)[0] || "/";
  return getPath({ url: `http://fleet${target}` } as Request);
}

/**
 * A session's worker. An id that names no worker goes to worker 0, which answers it as any server answers
 * an unknown session (after its own auth check), so the router needs no error shapes of its own.
 */
function sessionHome(id: string, workers: number): FleetRoute {
  return { to: "worker", worker: workerOfSession(id, workers) ?? 0 };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** FNV-1a of a string: a stable home for an isolated site id or a session opening's key. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
