/**
 * The env server's session routes: open a session on a task, call its tools, score it, read its trace,
 * close it. Tool-level failures (unknown tool, bad arguments, API errors, spent budget) are HTTP 200
 * answers with `ok:false` and an `error_type`, because they are data for the model; 4xx answers are for
 * protocol errors only, and none of them changes anything.
 */
import type { Hono } from "hono";
import { z } from "zod";
import type { ToolCallResult } from "../tools/execute-tool.ts";
import { openSession } from "./open-session.ts";
import { readJson } from "./protocol.ts";
import type { Session, SessionStore } from "./sessions.ts";
import type { TaskSource } from "./task-source.ts";

const openBody = z.strictObject({
  scenario: z.string().optional(),
  split: z.string().optional(),
  index: z.number().optional(),
  seed: z.number().optional(),
  task_id: z.string().optional(),
});

const callBody = z.strictObject({
  /** The tool arguments: an object, or the JSON text a model emitted (parsed and checked by the tool). */
  arguments: z.unknown().optional(),
  call_id: z.string().optional(),
});

const scoreBody = z.strictObject({
  final_message: z.string().nullable().optional(),
  mode: z.enum(["paper", "state", "gated"]).optional(),
});

export function addSessionRoutes(app: Hono, store: SessionStore, tasks: TaskSource): void {
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
    return c.json(openSession(store, tasks, request, new URL(c.req.url).origin).opening);
  });

  app.post("/v1/sessions/:sid/tools/:name", async (c) => {
    const session = store.get(c.req.param("sid"));
    const body = await readJson(c, callBody);
    const result = await session.run((episode) =>
      episode.step({ name: c.req.param("name"), arguments: body.arguments }),
    );
    return c.json(
      result.ok
        ? { ok: true, output: result.observation }
        : { ok: false, error: result.observation, error_type: result.errorType },
    );
  });

  app.post("/v1/sessions/:sid/score", async (c) => {
    const session = store.get(c.req.param("sid"));
    const body = await readJson(c, scoreBody, {});
    const score = await session.run((episode) => {
      if (body.final_message !== undefined) {
        session.finalMessage = body.final_message;
        episode.finish(body.final_message);
      }
      return episode.score(body.mode);
    });
    return c.json({
      reward: score.reward,
      passed: score.passed,
      mode: score.mode,
      paper_reward: score.paperReward,
      components: score.components,
      violations: score.violations,
      explanation: score.explanation,
    });
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

function traceOf(session: Session) {
  const { episode } = session;
  return {
    session_id: session.id,
    task_id: episode.task.id,
    scenario: episode.scenario.id,
    budget: episode.expectation.budget,
    expectation: episode.expectation,
    final_message: session.finalMessage,
    calls: episode.calls.map((call, i) => traceCall(call, i)),
  };
}

function traceCall(call: ToolCallResult, i: number) {
  return {
    i,
    name: call.name,
    arguments: call.arguments,
    operation_id: call.operationId,
    status: call.status,
    ok: call.ok,
    ...(call.ok ? { output: call.observation } : { error: call.observation, error_type: call.errorType }),
  };
}
