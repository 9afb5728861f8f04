/**
 * The Streamable HTTP endpoint `/mcp` (stateful: one MCP session per `mcp-session-id`, each with its own
 * McpServer and binding). The initialize request chooses the binding with query parameters:
 * `?tools=default|rovo|mcp-atlassian` and, to bind an env-server episode, `&session=<session id>`
 * (from POST /v1/sessions); without a session the MCP session gets its own fork of the server's site.
 * Answers are JSON (no SSE streams: the server never sends requests of its own, so GET is 405). Idle
 * MCP sessions are closed after a TTL and their number is capped; protocol errors are JSON-RPC errors
 * with a 4xx status and change nothing. An MCP session bound to a journaled env session is journaled
 * with it (its id, tool set and initialize parameters; its close), and `reopen` brings such sessions
 * back after a restart under the same `mcp-session-id` by replaying their initialize handshake.
 *
 * An agent holding only its session's token (auth-gate.ts `agentRequest`) gets the session's tools and
 * prompt but never its score (create-mcp-server.ts), never reaches an MCP session the trainer opened, and
 * may hold at most MAX_PER_SESSION MCP sessions on it (the trainer's are not counted); every MCP session
 * bound to an env session is closed with it.
 */
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { AtlasGymError } from "../../errors.ts";
import { authorize } from "../../http/authorize.ts";
import { MAX_BODY_BYTES, readBodyText, TOO_LARGE_HEADERS } from "../../http/read-body.ts";
import { createSite, DEFAULT_BASE_URL } from "../../sandbox/fixtures/default-site.ts";
import { parseJson } from "../../sandbox/parse-json.ts";
import type { Site } from "../../sandbox/site.ts";
import { isToolSetName, TOOL_SET_NAMES } from "../../tools/aliases/tool-sets.ts";
import { agentRequest, refusal } from "../auth-gate.ts";
import { JournalWriteError } from "../errors.ts";
import type { McpInitParams, McpOpenRecord } from "../journal.ts";
import { callTool, finishSession } from "../session-calls.ts";
import type { Session, SessionStore } from "../sessions.ts";
import { AGENT_AUTH, createMcpServer } from "./create-mcp-server.ts";
import { answerInvalidParams } from "./invalid-params.ts";
import { createEpisodeBinding, createSiteBinding, type McpBinding } from "./mcp-binding.ts";

export interface McpHttpOptions {
  /** Seed of the site free MCP sessions fork. */
  seed: number;
  /** The env server's sessions, for `?session=` binding; without it only free sessions can be opened. */
  sessions?: Pick<SessionStore, "find" | "touch"> & Partial<Pick<SessionStore, "onClose">>;
  /** When set, requests need `Authorization: Bearer <token>`. */
  token?: string | null;
  /** Idle time (ms) after which an MCP session is closed. Default 10 minutes. */
  ttlMs?: number;
  /** Most MCP sessions open at once. Default 1024. */
  maxSessions?: number;
  /** Milliseconds clock. Default Date.now. */
  clock?: () => number;
  /** A new MCP session's id (default a random UUID; a fleet worker's say which worker it is). */
  newId?: () => string;
  /** Env sessions rebuilt from a journal: the MCP sessions bound to them that were open are reopened. */
  reopen?: readonly Session[];
}

export interface McpHttpHandler {
  fetch(request: Request): Promise<Response>;
  /** The methods and path it answers (every other method gets a JSON-RPC error too). */
  readonly routes: readonly { method: string; path: string }[];
  /** Idle time (ms) after which an MCP session is closed. */
  readonly ttlMs: number;
  /** Open MCP sessions. */
  readonly size: number;
  /** Closes idle MCP sessions; returns how many. */
  reap(): number;
  /** Closes every MCP session. */
  close(): Promise<void>;
}

interface Entry {
  transport: WebStandardStreamableHTTPServerTransport;
  lastUsed: number;
  /** The env session it is bound to, if any. */
  session?: Session;
  /** Opened by the agent on its session's token: the only kind the agent may use (see the top). */
  agent: boolean;
}

/** Most MCP sessions bound to one env session at once (so that one agent cannot fill the server's cap). */
export const MAX_PER_SESSION = 32;

/** Keeps (and journals) an MCP session bound to an env session, so a restart reopens it. */
function remember(
  session: Session,
  id: string,
  set: McpOpenRecord["set"],
  init: McpInitParams,
  agent: boolean,
): void {
  const record: McpOpenRecord = { t: "mcp", id, set, init, ...(agent ? { agent: true as const } : {}) };
  session.log(record); // first: an opening the journal lacks did not happen
  session.mcp.set(id, record);
}

/** Forgets (and journals the close of) an MCP session bound to an env session. */
function forget(session: Session | undefined, id: string): void {
  if (!session?.mcp.has(id)) return;
  session.log({ t: "mcp-close", id }); // first: a close the journal lacks did not happen
  session.mcp.delete(id);
}

export function createMcpHttpHandler(options: McpHttpOptions): McpHttpHandler {
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const maxSessions = options.maxSessions ?? 1024;
  const clock = options.clock ?? Date.now;
  const entries = new Map<string, Entry>();
  let template: Site | undefined;

  const closeEntry = (id: string) => {
    const entry = entries.get(id);
    entries.delete(id);
    return entry?.transport.close();
  };
  // An env session's MCP sessions end with it (its journal, and so their records, are gone).
  options.sessions?.onClose?.((session) => {
    for (const [id, entry] of entries) if (entry.session === session) void closeEntry(id);
  });
  const reap = () => {
    const now = clock();
    const idle = [...entries].filter(([, e]) => now - e.lastUsed >= ttlMs).map(([id]) => id);
    let closed = 0;
    for (const id of idle) {
      try {
        forget(entries.get(id)?.session, id);
      } catch (error) {
        // Its env session's journal cannot record the close now: it stays, for the next pass.
        if (error instanceof JournalWriteError) continue;
        throw error;
      }
      void closeEntry(id);
      closed++;
    }
    return closed;
  };

  function bind(url: URL): { binding: McpBinding; session?: Session } {
    const tools = url.searchParams.get("tools") ?? "default";
    if (!isToolSetName(tools))
      throw new McpHttpError(400, `Unknown tool set "${tools}" (known: ${TOOL_SET_NAMES.join(", ")}).`);
    const sessionId = url.searchParams.get("session");
    if (sessionId === null) {
      template ??= createSite({ seed: options.seed });
      return { binding: createSiteBinding(template.fork(), tools, DEFAULT_BASE_URL) };
    }
    const session = options.sessions?.find(sessionId);
    if (!session)
      throw new McpHttpError(
        404,
        `Env-server session ${sessionId} not found (closed, reaped, or never opened).`,
      );
    const binding = createEpisodeBinding(session.episode, tools, (fn) => session.run(fn));
    // Calls and the final answer go through the session so that they are journaled like /v1 ones.
    return {
      session,
      binding: {
        ...binding,
        call: (request) => callTool(session, request, { set: tools, tools: binding.tools }),
        episode: { ...binding.episode!, finish: (answer) => finishSession(session, answer) },
      },
    };
  }

  /**
   * A transport for a new MCP session (`fixedId`: reopening a journaled one under its id; `agent`: opened
   * on the session's token).
   */
  async function connect(bound: { binding: McpBinding; session?: Session }, id: string, agent: boolean) {
    const { binding, session } = bound;
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      enableJsonResponse: true,
      onsessioninitialized: (opened) => {
        entries.set(opened, { transport, lastUsed: clock(), session, agent });
      },
      onsessionclosed: (id) => {
        forget(session, id);
        entries.delete(id);
      },
    });
    await createMcpServer(binding, { agent }).connect(transport);
    answerInvalidParams(transport);
    return transport;
  }

  /** Reopens a journaled MCP session: its initialize and initialized messages, answered to no one. */
  async function reopenOne(session: Session, saved: McpOpenRecord): Promise<void> {
    const url = new URL(`http://reopen.local/mcp?tools=${saved.set}&session=${session.id}`);
    const transport = await connect(bind(url), saved.id, saved.agent === true);
    const post = (body: unknown, headers: Record<string, string>) =>
      transport.handleRequest(
        new Request(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...headers,
          },
          body: JSON.stringify(body),
        }),
      );
    const opened = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: saved.init }, {});
    if (!opened.ok || transport.sessionId !== saved.id)
      throw new Error(`initialize answered ${opened.status}`);
    const headers = { "mcp-session-id": saved.id, "mcp-protocol-version": saved.init.protocolVersion };
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
  }

  const reopening = Promise.all(
    (options.reopen ?? []).flatMap((session) =>
      [...session.mcp.values()].map((saved) =>
        // One that cannot be reopened is forgotten: its client is told to initialise again (404).
        reopenOne(session, saved).catch(() => forget(session, saved.id)),
      ),
    ),
  );

  async function open(request: Request, body: unknown): Promise<Response> {
    if (!isInitializeRequest(body))
      return rpcError(400, -32000, "Bad Request: send initialize first, or pass the mcp-session-id header.");
    reap();
    if (entries.size >= maxSessions)
      return rpcError(429, -32000, `Too many MCP sessions (at most ${maxSessions}); close idle ones.`);
    let bound: ReturnType<typeof bind>;
    try {
      bound = bind(new URL(request.url));
    } catch (error) {
      if (error instanceof McpHttpError) return rpcError(error.status, -32602, error.message);
      if (error instanceof AtlasGymError) return rpcError(400, -32602, error.message);
      throw error;
    }
    const agent = agentRequest(request);
    // The agent's MCP sessions on one env session are capped; the trainer's are not (it is never locked out).
    const agentsOwn = (e: Entry) => e.agent && e.session === bound.session;
    if (agent && bound.session && [...entries.values()].filter(agentsOwn).length >= MAX_PER_SESSION)
      return rpcError(
        429,
        -32000,
        `Too many MCP sessions on env session ${bound.session.id} (at most ${MAX_PER_SESSION}); close idle ones.`,
      );
    const id = (options.newId ?? randomUUID)();
    const { session } = bound;
    // Journaled before it exists: an MCP session the journal could not record is not opened (503).
    if (session) {
      const init = (body as { params: McpInitParams }).params;
      try {
        remember(session, id, bound.binding.toolSet, init, agent);
      } catch (error) {
        if (error instanceof JournalWriteError) return journalUnavailable(error);
        throw error;
      }
    }
    const transport = await connect(bound, id, agent);
    const answer = await transport.handleRequest(request, {
      parsedBody: body,
      ...(agent ? { authInfo: AGENT_AUTH } : {}),
    });
    // An initialize the SDK refused opened nothing: take its record back (best effort).
    if (session && transport.sessionId === undefined)
      try {
        forget(session, id);
      } catch {}
    return answer;
  }

  return {
    async fetch(request) {
      await reopening;
      const decision = authorize(request.headers.get("authorization"), { token: options.token });
      if (!decision.ok) return refusal("mcp", "/mcp", decision.reason, decision.hint);
      if (request.method === "GET")
        return rpcError(405, -32000, "Method not allowed: this server sends no SSE stream; POST JSON-RPC.", {
          allow: "POST, DELETE",
        });
      const id = request.headers.get("mcp-session-id");
      if (id === null && request.method !== "POST")
        return rpcError(400, -32000, "Bad Request: no mcp-session-id header.");
      const body = request.method === "POST" ? await readRpcBody(request) : undefined;
      if (body instanceof Response) return body;
      if (id === null) return open(request, body);
      const entry = entries.get(id);
      // An MCP session is reached only under the env session it is bound to (as the gate scoped the
      // request, src/server/session-scope.ts): `?session=A` never reaches one bound elsewhere or unbound.
      const scope = new URL(request.url).searchParams.get("session");
      // Nor does the agent reach an MCP session the trainer opened (it lists the score there).
      if (!entry || (scope && entry.session?.id !== scope) || (!entry.agent && agentRequest(request)))
        return rpcError(404, -32001, "Session not found: it was closed or reaped; initialize again.");
      if (request.method === "DELETE" && entry.session) {
        // The close is journaled first: one the journal cannot record closes nothing (503).
        try {
          forget(entry.session, id);
        } catch (error) {
          if (error instanceof JournalWriteError) return journalUnavailable(error);
          throw error;
        }
      }
      entry.lastUsed = clock();
      // Any request on an MCP session bound to an env session (a tools/list too) keeps that one alive.
      if (entry.session) options.sessions?.touch(entry.session.id);
      return entry.transport.handleRequest(request, {
        ...(body === undefined ? {} : { parsedBody: body }),
        ...(agentRequest(request) ? { authInfo: AGENT_AUTH } : {}),
      });
    },
    routes: ["POST", "GET", "DELETE"].map((method) => ({ method, path: "/mcp" })),
    ttlMs,
    get size() {
      return entries.size;
    },
    reap,
    async close() {
      await Promise.all([...entries.keys()].map(closeEntry));
    },
  };
}

/** A POST's JSON-RPC body, read under the size limit, or the error answer. */
async function readRpcBody(request: Request): Promise<unknown> {
  const text = await readBodyText(request);
  if (text === null)
    return rpcError(413, -32600, `Request body is larger than the ${MAX_BODY_BYTES} byte limit.`, {
      ...TOO_LARGE_HEADERS,
    });
  try {
    return parseJson(text);
  } catch {
    return rpcError(400, -32700, "Parse error: the body is not JSON.");
  }
}

/** The answer when an env session's journal cannot record an MCP session's opening or close. */
function journalUnavailable(error: JournalWriteError): Response {
  return rpcError(error.status, -32000, error.message, error.headers);
}

/** A request the endpoint refuses before any MCP session exists. */
class McpHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function rpcError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}
