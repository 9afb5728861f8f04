/**
 * Read-only routes for watching the env server (`atlas-gym view --env`): the sessions it holds, and
 * each one's trace from a given call on, so a watcher polls only what is new. They sit under /v1, behind
 * the same bearer token as every /v1 route, and never touch a session (a watcher does not keep a session
 * from being reaped, and takes no call lock: it reads the calls recorded so far).
 */
import type { Hono } from "hono";
import { z } from "zod";
import { EnvRequestError } from "./errors.ts";
import { traceCall } from "./session-routes.ts";
import type { Session, SessionStore } from "./sessions.ts";

const sinceQuery = z.strictObject({ since: z.coerce.number().int().min(0).max(1_000_000_000).default(0) });

function summary(session: Session, now: number) {
  const { episode } = session;
  return {
    session_id: session.id,
    task_id: episode.task.id,
    scenario: episode.scenario.id,
    calls: episode.calls.length,
    budget: episode.expectation.budget,
    final_message: session.finalMessage,
    age_seconds: Math.max(0, Math.round((now - session.createdAt) / 1000)),
    idle_seconds: Math.max(0, Math.round((now - session.lastUsed) / 1000)),
  };
}

export function addLiveRoutes(app: Hono, store: SessionStore): void {
  app.get("/v1/live/sessions", (c) => {
    const now = store.now();
    return c.json({ sessions: store.ids().map((id) => summary(store.get(id), now)) });
  });

  app.get("/v1/live/sessions/:sid", (c) => {
    const session = store.get(c.req.param("sid"));
    const query = sinceQuery.safeParse(c.req.query());
    if (!query.success)
      throw new EnvRequestError(
        400,
        "invalid_request",
        `Invalid query: ${query.error.issues.map((i) => `${i.path.join(".") || "query"}: ${i.message}`).join("; ")}`,
      );
    const { since } = query.data;
    const { episode } = session;
    return c.json({
      ...summary(session, store.now()),
      prompt: episode.task.prompt,
      since,
      trace: episode.calls.slice(since).map((call, i) => traceCall(call, since + i + 1)),
    });
  });
}
