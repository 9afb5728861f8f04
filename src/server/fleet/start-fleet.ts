/**
 * `atlas-gym serve --workers N`: N `atlas-gym serve` processes on loopback ports, each with its own
 * journal (`<journal>/w<k>`), supervised (a dead one is started again on its port and rebuilds its
 * sessions from its journal), behind one router on the public port. Where each request goes is
 * fleet-routes.ts; the hop itself is fleet-proxy.ts. `/health` and the session listings (`GET
 * /v1/sessions`, `GET /v1/live/sessions`) are answered from every worker together; a listing a worker
 * refuses (a wrong token) is answered with its refusal. The token is the workers' to check, so the router
 * keeps to the listening rule of every server (src/http/listen-guard.ts): beyond loopback only when the
 * workers require a token. `/health` keeps the rule of every server's too: the workers, their restarts
 * and the session count only for a caller the token (or `--auth`) lets in (src/http/authorize.ts), only
 * `{status, version}` for anyone else.
 *
 * A journal folder is one fleet's at a time (journal-lock.ts): `<journal>/fleet.lock` names the router
 * and its workers' pids. Another fleet on the same folder is refused while that router runs; once it is
 * gone (a kill -9), the next fleet takes the folder over after its old workers have exited (they do, with
 * their router: see worker-process.ts), so no two processes ever journal into one `w<k>`.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { authorize } from "../../http/authorize.ts";
import type { Credentials } from "../../http/basic-auth.ts";
import { foreignRequest } from "../../http/foreign-request.ts";
import { refuseOpenListen } from "../../http/listen-guard.ts";
import { VERSION } from "../../version.ts";
import {
  type Exchange,
  exchange,
  forwardedHeaders,
  type OutgoingRequest,
  readBody,
  routerError,
} from "./fleet-proxy.ts";
import { routeRequest } from "./fleet-routes.ts";
import { lockJournal } from "./journal-lock.ts";
import { freePort, startWorkerProcess, type WorkerProcess } from "./worker-process.ts";

/** Most keyed openings placed away from their home worker that the router remembers (oldest forgotten). */
const MAX_KEYED_OPENINGS = 65_536;

export interface FleetOptions {
  workers: number;
  port: number;
  /** The router's interface (default 127.0.0.1); beyond loopback only with a token. */
  host?: string;
  /**
   * The bearer token every worker requires (passed to them as ATLAS_GYM_TOKEN). Default: the
   * ATLAS_GYM_TOKEN of `env`, else of this process (what the workers would inherit).
   */
  token?: string | null;
  /**
   * The Basic credentials of `--auth`, which every worker then accepts (it gets `--auth` and the API token
   * as ATLAS_GYM_FLEET_API_TOKEN) and `/health` lets in. Default none.
   */
  credentials?: Credentials | null;
  /** Journal folder; each worker journals in `<journal>/w<k>`. Default a temporary folder, removed on close. */
  journal?: string;
  /** The public base URL (`--base-url`): its host names this fleet too, for the token-less Host check. */
  publicUrl?: string | null;
  /** Further `serve` arguments every worker gets (seed, TTLs, limits, base URL). */
  args?: string[];
  /** Environment every worker gets (the shared Basic-auth API token; the bearer token is `token`). */
  env?: Record<string, string>;
  /** How long a request waits for a worker that is down. */
  holdMs?: number;
  maxRestarts?: number;
  /** Worker output: inherited (default) or dropped (tests, benches). */
  output?: "inherit" | "ignore";
  log?: (line: string) => void;
  /** How long a new fleet waits for the workers of a dead one on the same journal to exit. Default 15 s. */
  takeoverWaitMs?: number;
}

export interface RunningFleet {
  url: string;
  journal: string;
  readonly workers: readonly WorkerProcess[];
  close(): Promise<void>;
}

export async function startFleet(options: FleetOptions): Promise<RunningFleet> {
  if (!Number.isInteger(options.workers) || options.workers < 1)
    throw new RangeError(`A fleet needs a whole number of workers >= 1, got ${options.workers}`);
  const host = options.host ?? "127.0.0.1";
  const token = options.token ?? options.env?.ATLAS_GYM_TOKEN ?? process.env.ATLAS_GYM_TOKEN ?? null;
  // Before any worker starts or anything binds: the router answers for the workers on every interface it is on.
  refuseOpenListen({ host, token });
  const credentials = options.credentials ?? null;
  const env: Record<string, string> = {
    ...options.env,
    ...(token ? { ATLAS_GYM_TOKEN: token } : {}),
    ...(credentials ? { ATLAS_GYM_FLEET_API_TOKEN: credentials.apiToken } : {}),
  };
  const args = [...(options.args ?? [])];
  if (credentials && !args.includes("--auth")) args.push("--auth");
  const temporary = options.journal === undefined;
  const journal = options.journal ?? mkdtempSync(join(tmpdir(), "atlas-gym-fleet-"));
  const lock = temporary ? null : await lockJournal(journal, options.takeoverWaitMs ?? 15_000);
  const pids: number[] = [];
  const started = await Promise.allSettled(
    Array.from({ length: options.workers }, async (_, k) => {
      const dir = join(journal, `w${k}`);
      mkdirSync(dir, { recursive: true });
      return startWorkerProcess({
        port: await freePort(),
        journal: dir,
        args: ["--fleet-worker", String(k), ...args],
        env,
        maxRestarts: options.maxRestarts,
        output: options.output,
        name: `atlas-gym serve: fleet worker ${k}`,
        log: options.log,
        onSpawn: (pid) => {
          pids[k] = pid;
          lock?.record(pids);
        },
      });
    }),
  );
  const workers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const abandon = async () => {
    await Promise.all(workers.map((w) => w.close()));
    lock?.release();
    if (temporary) rmSync(journal, { recursive: true, force: true });
  };
  const failed = started.find((s) => s.status === "rejected");
  if (failed) {
    await abandon();
    throw failed.reason;
  }
  const hold = options.holdMs;
  let turn = 0;
  // Keyed openings that did not land on their key's home worker (it was full or down), by key: bounded.
  const keyedOpenings = new Map<string, number>();
  const remember = (key: string, worker: number) => {
    if (keyedOpenings.size >= MAX_KEYED_OPENINGS) keyedOpenings.delete(keyedOpenings.keys().next().value!);
    keyedOpenings.set(key, worker);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Token-less (loopback only): what a web page could have sent is refused (src/http/foreign-request.ts).
    const foreign =
      token || credentials
        ? null
        : foreignRequest(req.method ?? "GET", (name) => headerOf(req, name), options.publicUrl);
    if (foreign !== null)
      return reply(
        res,
        routerError({ path: req.url ?? "/", body: null }, 403, "forbidden", `Forbidden: ${foreign}.`),
      );
    const out: OutgoingRequest = {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      headers: forwardedHeaders(req),
      ...(await readBody(req)),
    };
    const idempotencyKey = headerOf(req, "idempotency-key") ?? null;
    const route = routeRequest(
      out.method,
      out.path,
      workers.length,
      headerOf(req, "mcp-session-id"),
      idempotencyKey,
    );
    if (route.to === "health") {
      const caller = authorize(forwardedHeaders(req).authorization as string | undefined, {
        token,
        credentials,
      });
      return reply(res, await health(workers, caller.ok, req.headers.authorization));
    }
    if (route.to === "sessions") return reply(res, await merged(workers, out, hold, mergeSessions));
    if (route.to === "live") return reply(res, await merged(workers, out, hold, mergeLive));
    if (route.to === "worker") return reply(res, await exchange(workers[route.worker]!, out, hold));
    // A new session, or the catalogue: the next worker in turn that is up, passing over a full one. A
    // keyed opening goes where that key went before (the worker that remembers it), or else round from its
    // home, so that a retry takes the same way.
    const key = route.to === "open" && route.home !== undefined ? idempotencyKey : null;
    const placed = key === null ? undefined : keyedOpenings.get(key);
    if (placed !== undefined) return reply(res, await exchange(workers[placed]!, out, hold));
    const start = route.to === "open" && route.home !== undefined ? route.home : turn++;
    let answer: Exchange | null = null;
    for (let i = 0; i < workers.length; i++) {
      const k = (start + i) % workers.length;
      const worker = workers[k]!;
      if (!worker.up && i < workers.length - 1) continue;
      answer = await exchange(worker, out, hold);
      if (route.to === "open" && answer.status === 429) continue;
      if (key !== null && k !== start) remember(key, k);
      break;
    }
    return reply(res, answer!);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent)
        reply(
          res,
          routerError(
            { path: req.url ?? "/", body: null },
            500,
            "internal",
            `fleet router: ${error.message}`,
          ),
        );
      else res.destroy(error);
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port, host, () => resolve());
    });
  } catch (error) {
    await abandon();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}`,
    journal,
    workers,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await abandon();
    },
  };
}

function reply(res: ServerResponse, answer: Exchange): void {
  const headers = { ...answer.headers };
  delete headers["transfer-encoding"];
  delete headers.connection;
  delete headers["keep-alive"];
  headers["content-length"] = String(answer.body.length);
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

/**
 * Every worker's /health: the fleet is "ok" when all answer, "degraded" when some do, 503 when none. A
 * caller the fleet lets in (`authorized`; its credentials go on to each worker, which then shows its
 * session count) sees every worker's status, restarts and sessions; anyone else only `{status, version}`,
 * as a single server's /health answers them (src/server/auth-gate.ts).
 */
async function health(
  workers: readonly WorkerProcess[],
  authorized: boolean,
  authorization: string | undefined,
): Promise<Exchange> {
  const headers = authorized && authorization !== undefined ? { authorization } : {};
  const states = await Promise.all(
    workers.map(async (w, k) => {
      const answer = w.up
        ? await exchange(w, { method: "GET", path: "/health", headers, body: Buffer.alloc(0) }, 2000)
        : null;
      const body =
        answer?.status === 200 ? (JSON.parse(answer.body.toString()) as { sessions?: number }) : null;
      return {
        worker: k,
        status: body ? "ok" : "down",
        ...(typeof body?.sessions === "number" ? { sessions: body.sessions } : {}),
        restarts: w.restarts,
      };
    }),
  );
  const up = states.filter((s) => s.status === "ok").length;
  const status = up === workers.length ? "ok" : up > 0 ? "degraded" : "down";
  const counted = states.filter((s) => s.sessions !== undefined);
  const body = !authorized
    ? { status, version: VERSION }
    : {
        status,
        version: VERSION,
        ...(counted.length > 0 ? { sessions: counted.reduce((n, s) => n + (s.sessions ?? 0), 0) } : {}),
        workers: states,
      };
  return {
    status: up > 0 ? 200 : 503,
    headers: { "content-type": "application/json" },
    body: Buffer.from(JSON.stringify(body)),
  };
}

interface SessionListing {
  sessions: unknown[];
  max_sessions: number;
  ttl_seconds: number;
}

/** `GET /v1/sessions` of every worker as one: the sessions together, the capacity summed. */
function mergeSessions(lists: SessionListing[]): SessionListing {
  return {
    sessions: lists.flatMap((l) => l.sessions),
    max_sessions: lists.reduce((n, l) => n + l.max_sessions, 0),
    ttl_seconds: lists[0]!.ttl_seconds,
  };
}

/** `GET /v1/live/sessions` of every worker as one (src/server/live-routes.ts: `{sessions}`). */
function mergeLive(lists: { sessions: unknown[] }[]): { sessions: unknown[] } {
  return { sessions: lists.flatMap((l) => l.sessions) };
}

/**
 * A listing asked of every worker with the client's credentials and answered as one server's; the first
 * answer that is not a listing (a refusal) is the answer. HEAD is asked as GET (the body is not sent).
 */
async function merged<T>(
  workers: readonly WorkerProcess[],
  out: OutgoingRequest,
  hold: number | undefined,
  merge: (lists: T[]) => unknown,
): Promise<Exchange> {
  const ask = out.method === "HEAD" ? { ...out, method: "GET" } : out;
  const answers = await Promise.all(workers.map((w) => exchange(w, ask, hold)));
  const refused = answers.find((a) => a.status !== 200);
  if (refused) return refused;
  const body = merge(answers.map((a) => JSON.parse(a.body.toString()) as T));
  return {
    status: 200,
    headers: { "content-type": "application/json" },
    body: Buffer.from(JSON.stringify(body)),
  };
}

/** A request header's (first) value by lower-case name. */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
