/**
 * One process serving everything `atlas-gym serve` offers on one port: the env-server API (`/health`,
 * `/v1/...`), the REST facade on the default site (`/rest/api/3`, `/wiki`), isolated sites under
 * `/s/<id>/...`, and each env-server session's own site under `/s/<session id>/...`. It also runs the
 * reaper that closes idle env-server sessions, evicts idle isolated sites and closes idle MCP sessions.
 */
import type { Credentials } from "../http/basic-auth.ts";
import { createRestApp, type RestAppOptions } from "../http/create-rest-app.ts";
import { refuseOpenListen } from "../http/listen-guard.ts";
import { createSiteRegistry, type SiteRegistry } from "../http/site-registry.ts";
import { createCredentials, listen } from "../http/start-server.ts";
import { pathOf } from "../http/url-parts.ts";
import { gateRequests } from "./auth-gate.ts";
import { createEnvApp } from "./create-env-app.ts";
import { workerMcpSessionId, workerSessionId } from "./fleet/fleet-routes.ts";
import { lockServerJournal } from "./fleet/journal-lock.ts";
import { createJournal, type Journal } from "./journal.ts";
import { createMcpHttpHandler, type McpHttpHandler } from "./mcp/http-handler.ts";
import { type RestoreReport, restoreSessions } from "./session-replay.ts";
import { guardSessionSites, recordSessionCalls } from "./session-sites.ts";
import { createSessionStore, type SessionStore } from "./sessions.ts";
import { surfaceOf } from "./surfaces.ts";
import { createTaskSource, type TaskSource } from "./task-source.ts";
import { withToolCallFastPath } from "./tool-call-fast-path.ts";

export interface GymServerOptions {
  port: number;
  host?: string;
  /** Seed of the default site (sessions build their own sites from their tasks). */
  seed: number;
  /** Public origin for `self` links and serverInfo (see RestAppOptions.publicUrl); default the request's. */
  baseUrl?: string | null;
  /** Also accept (and, without a token, require) the Basic credentials printed at start-up (`--auth`). */
  auth?: boolean;
  /**
   * The server's token: every route but `/health` then requires it, as a bearer token or as the API
   * token of Basic auth (see src/http/authorize.ts). Without one the server listens on loopback only.
   */
  token?: string | null;
  /** Idle time (ms) after which a session is reaped. */
  sessionTtlMs?: number;
  maxSessions?: number;
  /** Idle time (ms) after which an isolated site (`/s/<id>`) is evicted. */
  siteTtlMs?: number;
  /** Most isolated sites held at once (a new one beyond that gets HTTP 429). */
  maxSites?: number;
  /** How often the reaper runs (ms); default a quarter of the shortest TTL, between 1 s and 60 s. */
  reapEveryMs?: number;
  /** Milliseconds clock of the session store (tests inject one and call `sessions.reap()`). */
  clock?: () => number;
  tasks?: TaskSource;
  observe?: RestAppOptions["observe"];
  /** Journal folder: sessions are journaled there, and those it holds are rebuilt at start (see journal.ts). */
  journal?: string;
  /** Member of a fleet (`serve --workers N`): its session ids carry this number (see fleet/fleet-routes.ts). */
  worker?: number;
  /** The Basic-auth API token with `auth` (a fleet's members share one); default a fresh random one. */
  apiToken?: string;
}

export interface RunningGymServer {
  url: string;
  sites: SiteRegistry;
  sessions: SessionStore;
  mcp: McpHttpHandler;
  credentials: Credentials | null;
  /** With a journal: the sessions rebuilt from it at start, and those that could not be. */
  restored: RestoreReport | null;
  /** Every route the server answers (method and router path), for tests that walk them all. */
  routes: RouteInfo[];
  /** The combined handler (for in-process use without a port). */
  fetch(request: Request): Response | Promise<Response>;
  close(): Promise<void>;
}

/** A route as its router registered it (`:name` parameters, `*` wildcards). */
export interface RouteInfo {
  method: string;
  path: string;
}

/** The combined fetch handler and its parts, without a port. */
export function createGymHandler(options: Omit<GymServerOptions, "port" | "host" | "reapEveryMs">) {
  const sites = createSiteRegistry(options.seed, {
    ttlMs: options.siteTtlMs,
    maxSites: options.maxSites,
    clock: options.clock,
  });
  const journal = options.journal ? openServerJournal(options.journal) : undefined;
  const sessions = createSessionStore({
    ttlMs: options.sessionTtlMs,
    maxSessions: options.maxSessions,
    clock: options.clock,
    sites,
    journal,
    ...(options.worker === undefined ? {} : { newId: () => workerSessionId(options.worker!) }),
  });
  const tasks = options.tasks ?? createTaskSource();
  const restored = journal ? restoreSessions(sessions, tasks, journal) : null;
  const credentials = createCredentials(options.auth ?? false, options.apiToken);
  const record = recordSessionCalls(sessions);
  // The gate below makes the one auth decision for every route; the parts behind it check nothing more.
  const rest = createRestApp({
    sites,
    credentials: null,
    publicUrl: options.baseUrl ?? null,
    observe: (op, result, request) => {
      record(op, result, request);
      options.observe?.(op, result, request);
    },
  });
  const env = createEnvApp({ sessions, tasks, serverToken: options.token });
  const envFetch = withToolCallFastPath(sessions, env.fetch);
  const restFetch = guardSessionSites(sessions, rest.fetch);
  // `/mcp`: the MCP Streamable HTTP endpoint (free sandboxes, or bound to these sessions with ?session=).
  const mcp = createMcpHttpHandler({
    seed: options.seed,
    sessions,
    clock: options.clock,
    ...(options.worker === undefined ? {} : { newId: () => workerMcpSessionId(options.worker!) }),
    reopen: restored?.restored.map((id) => sessions.get(id)),
  });
  // The gate refuses in the shape of the surface a request reaches: both read it with surfaceOf.
  const dispatch = (request: Request) => {
    const surface = surfaceOf(pathOf(request.url));
    return surface === "mcp"
      ? mcp.fetch(request)
      : surface === "rest"
        ? restFetch(request)
        : envFetch(request);
  };
  const fetch = gateRequests({ token: options.token, credentials }, dispatch, options.baseUrl);
  const routes = [...env.routes, ...rest.routes, ...mcp.routes].map(({ method, path }) => ({ method, path }));
  return { sites, sessions, credentials, fetch, mcp, restored, routes, journal };
}

/** The journal in `dir`, held by this server until it is closed (no other server may write there). */
function openServerJournal(dir: string): Journal {
  const lock = lockServerJournal(dir);
  const journal = createJournal(dir);
  return {
    ...journal,
    close() {
      journal.close();
      lock.release();
    },
  };
}

export async function startGymServer(options: GymServerOptions): Promise<RunningGymServer> {
  const host = options.host ?? "127.0.0.1";
  refuseOpenListen({ host, token: options.token });
  const handler = createGymHandler(options);
  const server = await listen(handler.fetch, options.port, host);
  const shortest = Math.min(handler.sessions.ttlMs, handler.sites.ttlMs, handler.mcp.ttlMs);
  const every = options.reapEveryMs ?? Math.min(60_000, Math.max(1000, shortest / 4));
  const reaper = setInterval(() => {
    try {
      reapIdle(handler);
    } catch (error) {
      // A timer's exception would end the process, and every session with it: report, try next time.
      console.error(
        `atlas-gym serve: the reaper failed (${(error as Error).message}); it runs again in ${every} ms`,
      );
    }
  }, every);
  reaper.unref();
  return {
    ...handler,
    url: server.url,
    close: async () => {
      clearInterval(reaper);
      await handler.mcp.close();
      await server.close();
      handler.journal?.close();
    },
  };
}

/** One pass of the reaper over everything that expires when idle. */
export function reapIdle(handler: Pick<ReturnType<typeof createGymHandler>, "sessions" | "sites" | "mcp">) {
  return { sessions: handler.sessions.reap(), sites: handler.sites.reap(), mcp: handler.mcp.reap() };
}
