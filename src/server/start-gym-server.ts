/**
 * One process serving everything `atlas-gym serve` offers on one port: the env-server API (`/health`,
 * `/v1/...`), the REST facade on the default site (`/rest/api/3`, `/wiki`), isolated sites under
 * `/s/<id>/...`, and each env-server session's own site under `/s/<session id>/...`. It also runs the
 * idle-session reaper.
 */
import type { Credentials } from "../http/basic-auth.ts";
import { createRestApp, type RestAppOptions } from "../http/create-rest-app.ts";
import { createSiteRegistry, type SiteRegistry } from "../http/site-registry.ts";
import { createCredentials, listen } from "../http/start-server.ts";
import { createEnvApp } from "./create-env-app.ts";
import { createMcpHttpHandler } from "./mcp/http-handler.ts";
import { guardSessionSites, recordSessionCalls } from "./session-sites.ts";
import { createSessionStore, type SessionStore } from "./sessions.ts";
import type { TaskSource } from "./task-source.ts";

export interface GymServerOptions {
  port: number;
  host?: string;
  /** Seed of the default site (sessions build their own sites from their tasks). */
  seed: number;
  /** Public origin for `self` links and serverInfo (see RestAppOptions.publicUrl); default the request's. */
  baseUrl?: string | null;
  /** Require Basic auth on the REST facade. */
  auth?: boolean;
  /** Require `Authorization: Bearer <token>` on /v1 routes. */
  token?: string | null;
  /** Idle time (ms) after which a session is reaped. */
  sessionTtlMs?: number;
  maxSessions?: number;
  /** How often the reaper runs (ms); default a quarter of the TTL, between 1 s and 60 s. */
  reapEveryMs?: number;
  /** Milliseconds clock of the session store (tests inject one and call `sessions.reap()`). */
  clock?: () => number;
  tasks?: TaskSource;
  observe?: RestAppOptions["observe"];
}

export interface RunningGymServer {
  url: string;
  sites: SiteRegistry;
  sessions: SessionStore;
  credentials: Credentials | null;
  /** The combined handler (for in-process use without a port). */
  fetch(request: Request): Response | Promise<Response>;
  close(): Promise<void>;
}

/** The combined fetch handler and its parts, without a port. */
export function createGymHandler(options: Omit<GymServerOptions, "port" | "host" | "reapEveryMs">) {
  const sites = createSiteRegistry(options.seed);
  const sessions = createSessionStore({
    ttlMs: options.sessionTtlMs,
    maxSessions: options.maxSessions,
    clock: options.clock,
    sites,
  });
  const credentials = createCredentials(options.auth ?? false);
  const record = recordSessionCalls(sessions);
  const rest = createRestApp({
    sites,
    credentials,
    publicUrl: options.baseUrl ?? null,
    observe: (op, result, request) => {
      record(op, result, request);
      options.observe?.(op, result, request);
    },
  });
  const env = createEnvApp({ sessions, tasks: options.tasks, token: options.token });
  const restFetch = guardSessionSites(sessions, rest.fetch);
  // `/mcp`: the MCP Streamable HTTP endpoint (free sandboxes, or bound to these sessions with ?session=).
  const mcp = createMcpHttpHandler({
    seed: options.seed,
    sessions,
    token: options.token,
    clock: options.clock,
  });
  const fetch = (request: Request) =>
    isMcpPath(request.url)
      ? mcp.fetch(request)
      : isEnvPath(request.url)
        ? env.fetch(request)
        : restFetch(request);
  return { sites, sessions, credentials, fetch, mcp };
}

export async function startGymServer(options: GymServerOptions): Promise<RunningGymServer> {
  const handler = createGymHandler(options);
  const server = await listen(handler.fetch, options.port, options.host ?? "127.0.0.1");
  const every = options.reapEveryMs ?? Math.min(60_000, Math.max(1000, handler.sessions.ttlMs / 4));
  const reaper = setInterval(() => handler.sessions.reap(), every);
  reaper.unref();
  return {
    ...handler,
    url: server.url,
    close: async () => {
      clearInterval(reaper);
      await handler.mcp.close();
      return server.close();
    },
  };
}

/** `/mcp` (with any query) is the MCP endpoint. */
function isMcpPath(url: string): boolean {
  const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
  return /^\/mcp([?#]|$)/.test(path);
}

/** `/health` and `/v1/...` belong to the env server; everything else to the REST facade. */
function isEnvPath(url: string): boolean {
  const path = url.slice(url.indexOf("/", url.indexOf("//") + 2));
  return /^\/(v1|health)([/?]|$)/.test(path);
}
