/**
 * The fleet router's hop to a worker: the request goes on as it came (method, path, every header
 * including `Host` and `Authorization`, the body), over a keep-alive connection, and the answer comes back
 * as it was. A worker that is down (killed, restarting from its journal) is waited for, then the request
 * is sent again, when that cannot apply it twice: it never reached the worker (connection refused), or it
 * is safe to repeat (reads, deletes, env-server tool calls numbered with `seq`, scores, opening a session,
 * whose stray duplicate the TTL reaps). Otherwise the client gets a 502 saying the outcome is unknown.
 * The router's own errors (502, 503) come in the shape of the surface the client called, as a worker's
 * would: `{error, code}` on `/v1` and `/health`, a JSON-RPC error on `/mcp`, the vendor's error body on
 * REST (Jira, Confluence v2 or v1, by the path).
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { dialectForPath } from "../../http/dialect.ts";
import { MAX_BODY_BYTES } from "../../http/read-body.ts";
import { dialectError } from "../../sandbox/api-error.ts";
import { surfaceOf } from "../surfaces.ts";
import { decodedPath } from "./fleet-routes.ts";
import type { WorkerProcess } from "./worker-process.ts";

export interface Exchange {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface OutgoingRequest {
  method: string;
  /** Path and query, as the client sent them. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The whole body, or null when it was too large to hold (then it is sent once, never repeated). */
  body: Buffer | null;
  /** The client's request stream, for a body too large to hold. */
  stream?: IncomingMessage;
  /** The part of that body read before it passed the limit. */
  head?: Buffer;
}

/** How long a request waits for a worker that is down before it is answered 503. Default 60 s. */
export const DEFAULT_HOLD_MS = 60_000;

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/** Reads a request body into memory up to the body limit; a longer one is left to stream. */
export function readBody(req: IncomingMessage): Promise<Pick<OutgoingRequest, "body" | "stream" | "head">> {
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (declared > MAX_BODY_BYTES) return Promise.resolve({ body: null, stream: req, head: Buffer.alloc(0) });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      chunks.push(chunk);
      if (size > MAX_BODY_BYTES) {
        req.off("data", onData);
        req.off("end", onEnd);
        req.pause();
        resolve({ body: null, stream: req, head: Buffer.concat(chunks) });
      }
    };
    const onEnd = () => resolve({ body: Buffer.concat(chunks, size) });
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", reject);
  });
}

/** Sends the request to the worker, waiting for it and resending when that is safe (see the top). */
export async function exchange(
  worker: WorkerProcess,
  out: OutgoingRequest,
  holdMs = DEFAULT_HOLD_MS,
): Promise<Exchange> {
  const deadline = Date.now() + holdMs;
  for (;;) {
    try {
      return await send(worker.url, out);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reached = code !== "ECONNREFUSED";
      if (out.body === null || (reached && !repeatable(out))) return lost(out, error as Error);
      if (Date.now() >= deadline || !(await waitUntilUp(worker, deadline))) return unavailable(out, holdMs);
    }
  }
}

function send(base: string, out: OutgoingRequest): Promise<Exchange> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: out.method, path: out.path, headers: out.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.once("end", () =>
          resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.once("error", reject);
      },
    );
    req.once("error", reject);
    if (out.body !== null) req.end(out.body);
    else {
      req.write(out.head ?? Buffer.alloc(0));
      out.stream!.pipe(req);
      out.stream!.resume();
    }
  });
}

/** Whether resending the request cannot apply anything twice. */
function repeatable({ method, path, body }: OutgoingRequest): boolean {
  if (method === "GET" || method === "HEAD" || method === "DELETE" || method === "OPTIONS") return true;
  if (method !== "POST") return false;
  const bare = path.split("?")[0]!;
  if (bare === "/v1/sessions" || /^\/v1\/sessions\/[^/]+\/score$/.test(bare)) return true;
  return /^\/v1\/sessions\/[^/]+\/tools\/[^/]+$/.test(bare) && numbered(body);
}

/** Whether an env-server tool call carries its `seq` (a resent one is answered, not run again). */
function numbered(body: Buffer | null): boolean {
  try {
    return typeof (JSON.parse(body?.toString("utf8") ?? "") as { seq?: unknown }).seq === "number";
  } catch {
    return false;
  }
}

/** Resolves true once the worker is up again, false when the deadline passes or it will not come back. */
function waitUntilUp(worker: WorkerProcess, deadline: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
    worker.ready().then(
      () => {
        clearTimeout(timer);
        // A refused connection can come just before the exit is noticed: pause a beat before resending.
        setTimeout(() => resolve(true), worker.up ? 50 : 0);
      },
      () => {
        clearTimeout(timer);
        resolve(false);
      },
    );
  });
}

function unavailable(out: OutgoingRequest, holdMs: number): Exchange {
  return routerError(
    out,
    503,
    "worker_unavailable",
    `The fleet worker for this request did not come back within ${holdMs / 1000} s; retry later.`,
    { "retry-after": "1" },
  );
}

function lost(out: OutgoingRequest, error: Error): Exchange {
  return routerError(
    out,
    502,
    "worker_lost",
    `The fleet worker stopped while answering ${out.method} ${out.path.split("?")[0]} (${error.message}); whether it was applied is unknown, so it was not sent again. Check the state before retrying.`,
  );
}

/**
 * An error the router itself answers `out` with, in the shape of the surface it called: `{error, code}`
 * on the env server (`/v1`, `/health`), a JSON-RPC error on `/mcp` (with the request's id when it has
 * one), the vendor's error body on REST (`dialectForPath`, as the workers' REST facade answers).
 */
export function routerError(
  out: Pick<OutgoingRequest, "path" | "body">,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): Exchange {
  const sent = out.path.split(/[?#]/, 1)[0] || "/";
  const surface = surfaceOf(sent);
  const body =
    surface === "rest"
      ? dialectError(dialectForPath(decodedPath(out.path)), status, message).body
      : surface === "mcp"
        ? // -32001 for a refusal, as a single server's gate answers one (auth-gate.ts)
          {
            jsonrpc: "2.0",
            error: { code: status === 401 || status === 403 ? -32001 : -32000, message },
            id: rpcId(out.body),
          }
        : { error: message, code };
  return {
    status,
    headers: { "content-type": "application/json", ...headers },
    body: Buffer.from(JSON.stringify(body)),
  };
}

/** The id of a JSON-RPC request body (null for a batch, a notification or no JSON). */
function rpcId(body: Buffer | null): string | number | null {
  try {
    const id = (JSON.parse(body?.toString("utf8") ?? "") as { id?: unknown }).id;
    return typeof id === "string" || typeof id === "number" ? id : null;
  } catch {
    return null;
  }
}

/**
 * The headers a worker gets: as sent, except that every `Authorization` value is kept (node keeps only
 * the first), so a worker decides on what a single server would see (two values, joined, are refused).
 */
export function forwardedHeaders(req: IncomingMessage): IncomingMessage["headers"] {
  const values = req.headersDistinct.authorization;
  return values && values.length > 1 ? { ...req.headers, authorization: values.join(", ") } : req.headers;
}
