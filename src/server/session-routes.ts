/**
 * The env server's session routes: open a session on a task, call its tools, score it, read its trace,
 * close it. Tool-level failures (unknown tool, bad arguments, API errors, spent budget) are HTTP 200
 * answers with `ok:false` and an `error_type`, because they are data for the model; 4xx answers are for
 * protocol errors only, and none of them changes anything. A tool call may carry `seq` (see session-calls.ts)
 * and, like opening a session, an `Idempotency-Key` header (see idempotency.ts).
 */
import type { Hono } from "hono";
import { z } from "zod";
import { sessionApiToken } from "../http/session-token.ts";
import { REWARD_MODES } from "../reward/score.ts";
import type { ToolCallResult } from "../tools/tool-call-result.ts";
import { keyed, keyedText, keyOf, REPLAYED_HEADER } from "./idempotency.ts";
import { openSession } from "./open-session.ts";
import { readJson, scoreJson } from "./protocol.ts";
import { answerToolCall, scoreSession, sentCall } from "./session-calls.ts";
import type { Session, SessionStore } from "./sessions.ts";
import type { TaskSource } from "./task-source.ts";

const openBody = z.strictObject({
  scenario: z.string().optional(),
  split: z.string().optional(),
  index: z.number().optional(),
  seed: z.number().optional(),
  task_id: z.string().optional(),
});

/** A tool call's body (also read by the fast path in front of this route, tool-call-fast-path.ts). */
export const callBody = z.strictObject({
  /** The tool arguments: an object, or the JSON text a model emitted (parsed and checked by the tool). */
  arguments: z.unknown().optional(),
  call_id: z.string().optional(),
  /** The client's number for this call (1, 2, ... per session): a retry with the same number is not run twice. */
  seq: z.number().int().min(1).optional(),
});

export type CallBody = z.output<typeof callBody>;

const scoreBody = z.strictObject({
  final_message: z.string().nullable().optional(),
  mode: z.enum(REWARD_MODES).optional(),
});

/** `serverToken`: the server's token, from which each opening's `rest_api_token` is derived (null: none). */
export function addSessionRoutes(
  app: Hono,
  store: SessionStore,
  tasks: TaskSource,
  serverToken: string | null = null,
): void {
  app.get("/v1/sessions", (c) => {
    const now = store.now();
    return c.json({
      sessions: store.ids().map((id) => {
        const s = store.get(id);
        return {
          session_id: id,
          task_id: s.episode.task.id,
          calls: s.episode.calls.length,
          idle_seconds: Math.max(0, Math.round((now - s.lastUsed) / 1000)),
        };
      }),
      max_sessions: store.maxSessions,
      ttl_seconds: store.ttlMs / 1000,
    });
  });

  app.post("/v1/sessions", async (c) => {
    const request = await readJson(c, openBody);
    const key = keyOf(c.req.raw.headers);
    const keyedOpen = key === null ? undefined : keyed(key, "open", request);
    const opened = openSession(store, tasks, request, new URL(c.req.url).origin, undefined, keyedOpen);
    // Beside `rest_base_url`: the session's own API token for it (null on a server without a token),
    // what the agent's tools get instead of the server's token; never kept or journaled (it is derived).
    const apiToken = serverToken ? sessionApiToken(serverToken, opened.session.id) : null;
    const answer = { ...opened.opening, rest_api_token: apiToken };
    return c.json(answer, 200, opened.replayed ? { [REPLAYED_HEADER]: "true" } : {});
  });

  app.post("/v1/sessions/:sid/tools/:name", async (c) => {
    const session = store.get(c.req.param("sid"));
    const body = await readJson(c, callBody);
    const { result, replayed } = await callRequested(session, c.req.param("name"), body, c.req.raw.headers);
    return c.body(callAnswer(result), 200, callAnswerHeaders(replayed));
  });

  app.post("/v1/sessions/:sid/score", async (c) => {
    const session = store.get(c.req.param("sid"));
    const body = await readJson(c, scoreBody, {});
    const score = await scoreSession(session, body.final_message, body.mode);
    return c.json(scoreJson(score));
  });

  app.get("/v1/sessions/:sid/trace", async (c) => {
    const session = store.get(c.req.param("sid"));
    return c.json(await session.run(() => traceOf(session)));
  });

  app.delete("/v1/sessions/:sid", (c) => {
    const session = store.get(c.req.param("sid"));
    store.delete(session.id);
    return c.json({ closed: true, session_id: session.id });
  });
}

/**
 * Runs the tool call a request asks for: its body as `callBody` reads it, with its `seq` and the
 * Idempotency-Key its headers carry (the route above and the fast path in front of it, alike).
 */
export function callRequested(session: Session, name: string, body: CallBody, headers: Headers) {
  const key = keyOf(headers);
  const call = { name, arguments: body.arguments };
  return answerToolCall(session, call, {
    seq: body.seq,
    ...(key === null ? {} : { key: keyedText(key, sentCall(call)) }),
  });
}

const CALL_ANSWER_HEADERS = { "Content-Type": "application/json" };
const REPLAYED_CALL_ANSWER_HEADERS = { ...CALL_ANSWER_HEADERS, [REPLAYED_HEADER]: "true" };

/** The headers of a tool call's answer (`Idempotent-Replayed: true` on a kept answer given again). */
export function callAnswerHeaders(replayed: boolean): Record<string, string> {
  return replayed ? REPLAYED_CALL_ANSWER_HEADERS : CALL_ANSWER_HEADERS;
}

/**
 * A tool call's wire answer, `{ok, output}` or `{ok, error, error_type}`, as the JSON text c.json would
 * make of it, built around the observation (already JSON text) without serialising an object again.
 * The text is kept with the answer's body object, which a repeated read's record shares with the first
 * (env/repeat-reads.ts), so a repeat is not escaped again; it is used only when the observation, `ok` and
 * error type it was made from are the ones asked for now, so whatever else shares a body gets its own.
 */
export function callAnswer(result: ToolCallResult): string {
  const { body, observation, ok, errorType } = result;
  const holder = typeof body === "object" && body !== null ? body : null;
  const held = holder ? WIRE.get(holder) : undefined;
  if (held && held.observation === observation && held.ok === ok && held.errorType === errorType)
    return held.text;
  const quoted = JSON.stringify(observation);
  const text = ok
    ? `{"ok":true,"output":${quoted}}`
    : `{"ok":false,"error":${quoted},"error_type":${JSON.stringify(errorType)}}`;
  if (holder) WIRE.set(holder, { observation, ok, errorType, text });
  return text;
}

/** A wire answer and what it was made from. */
type WireAnswer = Pick<ToolCallResult, "observation" | "ok" | "errorType"> & { text: string };

/** Wire answers by the body object they were made for (gone with it). */
const WIRE = new WeakMap<object, WireAnswer>();

function traceOf(session: Session) {
  const { episode } = session;
  return {
    session_id: session.id,
    task_id: episode.task.id,
    scenario: episode.scenario.id,
    budget: episode.expectation.budget,
    expectation: episode.expectation,
    final_message: session.finalMessage,
    calls: episode.calls.map((call, i) => traceCall(call, i + 1)),
  };
}

/**
 * One call of a session's trace in the wire shape (also the live routes', see live-routes.ts). `i` is
 * the call's number, from 1 in the order the calls ran: the N of the score's "set by call N".
 */
export function traceCall(call: ToolCallResult, number: number) {
  return {
    i: number,
    name: call.name,
    arguments: call.arguments,
    operation_id: call.operationId,
    status: call.status,
    ok: call.ok,
    ...(call.ok ? { output: call.observation } : { error: call.observation, error_type: call.errorType }),
  };
}
