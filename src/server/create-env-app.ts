/**
 * The env-server API (`/health`, `/v1/...`) as a Hono app: the scenario catalogue (scenarios, their
 * tools and tasks, each task with the messages a session on it opens with) and the session routes. Every answer is JSON; errors are `{error, code}` with a 4xx
 * status (5xx only for bugs). Served beside the REST facade by `atlas-gym serve` (see start-gym-server.ts).
 */
import { Hono } from "hono";
import { z } from "zod";
import { openingMessages } from "../agent/system-prompt.ts";
import { createEpisode } from "../env/episode.ts";
import { taskTools } from "../env/offered-tools.ts";
import { isHeldOut } from "../scenarios/index.ts";
import { EVAL_TASKS } from "../scenarios/tasks.ts";
import { toFunctionTool } from "../tools/define-tool.ts";
import { VERSION } from "../version.ts";
import { EnvRequestError } from "./errors.ts";
import { addLiveRoutes } from "./live-routes.ts";
import { stepsOf, taskLimits } from "./open-session.ts";
import { errorResponse, tokenAuth } from "./protocol.ts";
import { addSessionRoutes } from "./session-routes.ts";
import type { SessionStore } from "./sessions.ts";
import { createTaskSource, type TaskSource } from "./task-source.ts";

export interface EnvAppOptions {
  sessions: SessionStore;
  tasks?: TaskSource;
  /** When set, /v1 routes require the token (bearer, or Basic API token); `serve` gates before this. */
  token?: string | null;
  /**
   * The server's token when a gate in front checks it (`serve`): what each opening's `rest_api_token`
   * is derived from (src/http/session-token.ts). Default: `token`.
   */
  serverToken?: string | null;
}

/**
 * Most tasks one listing builds (each one's opening is made, synchronously): a training run's dataset in
 * one or a few pages, and a bound on how long a listing holds the server (~1 ms a task for most families,
 * ~20 ms for a workflow; 100,000 took minutes). Page with `start`.
 */
export const MAX_TASKS_PER_LISTING = 1000;

const taskQuery = z.strictObject({
  split: z.enum(["eval", "train"]).default("eval"),
  n: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_TASKS_PER_LISTING, `at most ${MAX_TASKS_PER_LISTING} tasks a listing: page with start`)
    .optional(),
  start: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
});

export function createEnvApp({
  sessions,
  tasks = createTaskSource(),
  token,
  serverToken = token,
}: EnvAppOptions): Hono {
  const app = new Hono();
  app.onError((error, c) => errorResponse(c, error));
  app.notFound((c) =>
    errorResponse(
      c,
      new EnvRequestError(404, "not_found", `No env-server route matches ${c.req.method} ${c.req.path}`),
    ),
  );

  app.get("/health", (c) => c.json({ status: "ok", version: VERSION, sessions: sessions.size }));
  // Without a token there is nothing to check (and no middleware hop on every call).
  if (token) app.use("/v1/*", tokenAuth(token));

  app.get("/v1/scenarios", (c) =>
    c.json(
      tasks.scenarios.map((s) => ({
        id: s.id,
        description: s.description,
        levels: s.levels ?? [1, 2],
        held_out: isHeldOut(s.id),
        splits: { eval: EVAL_TASKS, train: null },
      })),
    ),
  );

  app.get("/v1/scenarios/:id/tools", (c) => {
    const scenario = tasks.scenario(c.req.param("id"));
    return c.json({ tools: [...taskTools(scenario).values()].map(toFunctionTool) });
  });

  app.get("/v1/scenarios/:id/tasks", (c) => {
    const scenario = tasks.scenario(c.req.param("id"));
    const query = taskQuery.safeParse(c.req.query());
    if (!query.success) {
      const problems = query.error.issues.map((i) => `${i.path.join(".") || "query"}: ${i.message}`);
      throw new EnvRequestError(400, "invalid_request", `Invalid query: ${problems.join("; ")}`);
    }
    const { split, n, start } = query.data;
    return c.json({
      tasks: tasks.list(scenario, split, n, start).map((t) => {
        // The opening a session on this task would start with, so a trainer builds its dataset from
        // this listing without opening (and closing) a session per task.
        const episode = createEpisode(scenario, t, {
          initialSite: tasks.resolve({ task_id: t.id, seed: t.seed }).site,
        });
        return {
          task_id: t.id,
          scenario: t.scenario,
          split: t.split,
          index: t.index,
          seed: t.seed,
          level: t.level,
          prompt: t.prompt,
          messages: openingMessages(episode),
          ...taskLimits(episode),
          ...stepsOf(episode),
        };
      }),
    });
  });

  addSessionRoutes(app, sessions, tasks, serverToken ?? null);
  addLiveRoutes(app, sessions);
  return app;
}
