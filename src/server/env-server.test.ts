/**
 * The env-server API over real loopback HTTP, served with the REST facade by one process: catalogue,
 * a whole episode through /tools and through REST on the session's site, tool failures as data,
 * protocol errors that change nothing, the bearer token, capacity and the reaper.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fakeClock } from "../../test/support/fake-clock.ts";
import { api } from "../../test/support/json-api.ts";
import { initializeRequest } from "../../test/support/mcp-messages.ts";
import { restRequestFor } from "../../test/support/rest-request.ts";
import { recordReference } from "../agent/scripted/replay.ts";
import { tasksFor } from "../scenarios/frozen.ts";
import { findScenario } from "../scenarios/index.ts";
import { defaultTools } from "../tools/catalogue.ts";
import { type RunningGymServer, startGymServer } from "./start-gym-server.ts";

const clock = fakeClock();
let server: RunningGymServer;
let url: string;

beforeAll(async () => {
  server = await startGymServer({ port: 0, seed: 1, sessionTtlMs: 60_000, clock: clock.now });
  url = server.url;
});
afterAll(() => server.close());

const open = async (body: unknown) => (await api(url, "POST", "/v1/sessions", body)).body;

describe("env server catalogue", () => {
  it("answers health, scenarios, tools and tasks", async () => {
    const health = await api(url, "GET", "/health");
    expect(health.body).toMatchObject({ status: "ok", version: "0.1.0" });
    const scenarios = (await api(url, "GET", "/v1/scenarios")).body;
    expect(scenarios).toContainEqual(
      expect.objectContaining({ id: "jira-transition-v1", splits: { eval: 12, train: null } }),
    );
    expect(scenarios).toContainEqual(
      expect.objectContaining({ id: "confluence-page-tree-v1", levels: [1, 2, 3], held_out: true }),
    );
    expect(scenarios).toContainEqual(expect.objectContaining({ id: "jira-assign-v1", held_out: false }));
    const tools = (await api(url, "GET", "/v1/scenarios/jira-transition-v1/tools")).body.tools;
    expect(tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(
      findScenario("jira-transition-v1").tools,
    );
    expect(tools[0]).toMatchObject({ type: "function", function: { parameters: { type: "object" } } });
    const evalTasks = (await api(url, "GET", "/v1/scenarios/jira-transition-v1/tasks?split=eval")).body.tasks;
    expect(evalTasks).toHaveLength(12);
    expect(evalTasks[3]).toMatchObject({
      task_id: "jira-transition-v1/eval/3",
      scenario: "jira-transition-v1",
      split: "eval",
      index: 3,
    });
    const train = (await api(url, "GET", "/v1/scenarios/jira-transition-v1/tasks?split=train&n=3&start=10"))
      .body.tasks;
    expect(train.map((t: { index: number }) => t.index)).toEqual([10, 11, 12]);
    // Each listed task carries the exact opening a session on it starts with (a trainer's dataset rows).
    for (const task of [evalTasks[3], train[1]]) {
      const opened = (await api(url, "POST", "/v1/sessions", { task_id: task.task_id, seed: task.seed }))
        .body;
      expect(task.messages).toEqual(opened.messages);
      expect(task.max_tool_calls).toBe(opened.limits.max_tool_calls);
      // The turn limit the server states is the task's own (turn-limit.ts), in the listing and the opening.
      expect(task.max_turns).toBe(task.max_tool_calls + 1);
      expect(opened.limits).toEqual({ max_tool_calls: task.max_tool_calls, max_turns: task.max_turns });
      expect(task).not.toHaveProperty("steps");
      expect(task.messages[1]).toEqual({ role: "user", content: task.prompt });
      await api(url, "DELETE", `/v1/sessions/${opened.session_id}`);
    }
  });

  it("lists a workflow family's tasks with their steps and a turn limit scaled to them", async () => {
    const single = (await api(url, "GET", "/v1/scenarios/jira-transition-v1/tasks?split=eval")).body.tasks;
    const flows = (await api(url, "GET", "/v1/scenarios/workflow-jira-v1/tasks?split=eval")).body.tasks;
    for (const task of flows) {
      expect(task.steps.length).toBeGreaterThanOrEqual(2);
      expect(task.max_turns).toBe(task.max_tool_calls + 1);
    }
    const turns = (tasks: { max_turns: number }[]) => tasks.map((t) => t.max_turns);
    expect(Math.max(...turns(flows))).toBeGreaterThan(Math.max(...turns(single)));
    const opened = (await api(url, "POST", "/v1/sessions", { task_id: flows[0].task_id })).body;
    expect(opened).toMatchObject({ steps: flows[0].steps, limits: { max_turns: flows[0].max_turns } });
    await api(url, "DELETE", `/v1/sessions/${opened.session_id}`);
  });

  it("answers unknown scenarios, bad queries and unknown routes with JSON 4xx", async () => {
    const missing = await api(url, "GET", "/v1/scenarios/nope-v1/tools");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      code: "scenario_not_found",
      error: expect.stringContaining("nope-v1"),
    });
    const badSplit = await api(url, "GET", "/v1/scenarios/jira-transition-v1/tasks?split=test");
    expect(badSplit.status).toBe(400);
    expect(badSplit.body.error).toMatch(/split/);
    expect((await api(url, "GET", "/v1/scenarios/jira-transition-v1/tasks?split=train&n=0")).status).toBe(
      400,
    );
    // A listing is a page of at most 1000 (each task's opening is built): more is a 400 naming the way.
    const tooMany = await api(url, "GET", "/v1/scenarios/jira-transition-v1/tasks?split=train&n=1001");
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatch(/at most 1000 tasks a listing: page with start/);
    const route = await api(url, "GET", "/v1/nothing");
    expect(route.status).toBe(404);
    expect(route.body.code).toBe("not_found");
  });
});

describe("env server sessions", () => {
  it("plays the reference solution through /tools and scores 1, idempotently", async () => {
    const scenario = findScenario("jira-subtask-create-v1");
    const task = tasksFor(scenario, "eval", 1, 2)[0]!;
    const session = await open({ scenario: scenario.id, split: "eval", index: 2 });
    expect(session.task_id).toBe(task.id);
    expect(session.messages.map((m: { role: string }) => m.role)).toEqual(["system", "user"]);
    expect(session.messages[1].content).toBe(task.prompt);
    expect(session.limits.max_tool_calls).toBeGreaterThan(0);
    const { calls, final } = recordReference(scenario, task);
    for (const call of calls) {
      const answer = await api(url, "POST", `/v1/sessions/${session.session_id}/tools/${call.name}`, {
        arguments: call.arguments,
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ ok: true, output: expect.any(String) });
    }
    const score = await api(url, "POST", `/v1/sessions/${session.session_id}/score`, {
      final_message: final,
    });
    expect(score.body).toMatchObject({ reward: 1, passed: true, violations: [] });
    expect(score.body.components.length).toBeGreaterThan(0);
    expect((await api(url, "POST", `/v1/sessions/${session.session_id}/score`)).body).toEqual(score.body);
    const trace = (await api(url, "GET", `/v1/sessions/${session.session_id}/trace`)).body;
    expect(trace.calls.map((c: { name: string }) => c.name)).toEqual(calls.map((c) => c.name));
    expect(trace.final_message).toBe(final);
    expect((await api(url, "DELETE", `/v1/sessions/${session.session_id}`)).body.closed).toBe(true);
    const gone = await api(url, "POST", `/v1/sessions/${session.session_id}/score`);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toMatch(new RegExp(`${session.session_id}.*reaped.*restarted`));
  });

  it("scores the same episode played over REST on the session's site", async () => {
    const scenario = findScenario("jira-transition-v1");
    const session = await open({ task_id: "jira-transition-v1/eval/5" });
    const task = tasksFor(scenario, "eval", 1, 5)[0]!;
    const tools = defaultTools();
    for (const call of recordReference(scenario, task).calls) {
      const request = restRequestFor(tools.get(call.name)!, call.arguments as Record<string, unknown>);
      const response = await fetch(`${session.rest_base_url}${request.path}`, {
        method: request.method,
        headers: request.body ? { "content-type": "application/json" } : {},
        body: request.body,
      });
      expect(response.status).toBeLessThan(300);
      await response.arrayBuffer();
    }
    const trace = (await api(url, "GET", `/v1/sessions/${session.session_id}/trace`)).body;
    expect(trace.calls[0].name).toMatch(/^GET \/rest\/api\/3\//);
    const score = (await api(url, "POST", `/v1/sessions/${session.session_id}/score`)).body;
    expect(score).toMatchObject({ reward: 1, passed: true });
    // The default site is untouched by the session's writes.
    const root = (await api(url, "GET", "/s/other/rest/api/3/issue/ENG-1?fields=status")).body;
    expect(root.self.startsWith(`${url}/s/other/`)).toBe(true);
  });

  it("answers tool-level failures as data with HTTP 200 and records them", async () => {
    const { session_id: sid, limits } = await open({ task_id: "jira-transition-v1/eval/0" });
    const call = (name: string, body: unknown) => api(url, "POST", `/v1/sessions/${sid}/tools/${name}`, body);
    expect((await call("jira_fly_to_moon", { arguments: {} })).body).toMatchObject({
      ok: false,
      error_type: "unknown_tool",
      error: expect.stringContaining("jira_fly_to_moon"),
    });
    expect((await call("jira_get_issue", { arguments: "{not json" })).body).toMatchObject({
      ok: false,
      error_type: "invalid_args",
    });
    const notFound = await call("jira_get_issue", { arguments: { issueIdOrKey: "ENG-99999" } });
    expect(notFound.status).toBe(200);
    expect(notFound.body).toMatchObject({
      ok: false,
      error_type: "api_error",
      error: expect.stringMatching(/404/),
    });
    for (let i = 3; i < limits.max_tool_calls; i++)
      await call("jira_get_issue", { arguments: { issueIdOrKey: "ENG-1" } });
    expect((await call("jira_get_issue", { arguments: { issueIdOrKey: "ENG-1" } })).body).toMatchObject({
      ok: false,
      error_type: "budget",
    });
    const trace = (await api(url, "GET", `/v1/sessions/${sid}/trace`)).body;
    expect(trace.calls).toHaveLength(limits.max_tool_calls + 1);
    const score = (await api(url, "POST", `/v1/sessions/${sid}/score`)).body;
    expect(score.violations.map((v: { code: string }) => v.code)).toEqual(
      expect.arrayContaining(["hallucinated_tool", "budget_exceeded"]),
    );
  });

  it("answers protocol errors with JSON 4xx and changes nothing", async () => {
    const before = server.sessions.size;
    const bad = [
      await api(url, "POST", "/v1/sessions", "{oops"),
      await api(url, "POST", "/v1/sessions", ""),
      await api(url, "POST", "/v1/sessions", { scenario: "jira-transition-v1", split: "eval" }),
      await api(url, "POST", "/v1/sessions", { task_id: "jira-transition-v1/eval/0", colour: "red" }),
      await api(url, "POST", "/v1/sessions", { task_id: "jira-transition-v1/eval/12" }),
      await api(url, "POST", "/v1/sessions", { task_id: "jira-transition-v1/eval/0", seed: 7 }),
      await api(url, "POST", "/v1/sessions", { task_id: "jira-transition-v1/eval/0", index: 1 }),
      await api(url, "POST", "/v1/sessions", { scenario: "jira-transition-v1", split: "dev", index: 0 }),
      await api(url, "POST", "/v1/sessions", { task_id: "nope-v1/train/0" }),
    ];
    expect(bad.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 400, 400, 400, 404]);
    for (const r of bad) expect(r.body).toEqual({ error: expect.any(String), code: expect.any(String) });
    expect(bad[3]!.body.error).toMatch(/colour/);
    expect(server.sessions.size).toBe(before);

    const { session_id: sid } = await open({ task_id: "jira-transition-v1/eval/1" });
    const malformed = [
      await api(url, "POST", `/v1/sessions/${sid}/tools/jira_get_issue`, "[1,"),
      await api(url, "POST", `/v1/sessions/${sid}/tools/jira_get_issue`, { issueIdOrKey: "ENG-1" }),
      await api(url, "POST", `/v1/sessions/${sid}/score`, { mode: "lenient" }),
      await api(url, "POST", "/v1/sessions/ses-nope/tools/jira_get_issue", { arguments: {} }),
      await api(url, "POST", `/v1/sessions/${sid}/tools/jira_get_issue`, "x".repeat(1_100_000)),
    ];
    expect(malformed.map((r) => r.status)).toEqual([400, 400, 400, 404, 413]);
    expect((await api(url, "GET", `/v1/sessions/${sid}/trace`)).body.calls).toEqual([]);
  });

  it("trains on generated tasks: a train session with an explicit seed", async () => {
    const a = await open({ scenario: "jira-transition-v1", split: "train", index: 4, seed: 424242 });
    const b = await open({ task_id: "jira-transition-v1/train/4", seed: 424242 });
    const c = await open({ task_id: "jira-transition-v1/train/4" });
    expect(a.seed).toBe(424242);
    expect(b.messages).toEqual(a.messages);
    expect(c.seed).not.toBe(424242);
  });
});

describe("env server access and lifetime", () => {
  it("requires the bearer token on /v1 when one is set, not on /health", async () => {
    const guarded = await startGymServer({ port: 0, seed: 1, token: "s3cret" });
    try {
      const anonymous = await api(guarded.url, "GET", "/v1/scenarios");
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("www-authenticate")).toMatch(/Bearer/);
      expect(anonymous.body.code).toBe("unauthorized");
      const wrong = await api(guarded.url, "GET", "/v1/scenarios", undefined, {
        authorization: "Bearer nope",
      });
      expect(wrong.status).toBe(401);
      const ok = await api(guarded.url, "GET", "/v1/scenarios", undefined, {
        authorization: "Bearer s3cret",
      });
      expect(ok.status).toBe(200);
      expect((await api(guarded.url, "GET", "/health")).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it("answers 429 with Retry-After past --max-sessions, and reaps idle sessions", async () => {
    const local = fakeClock();
    const small = await startGymServer({
      port: 0,
      seed: 1,
      maxSessions: 2,
      sessionTtlMs: 30_000,
      clock: local.now,
    });
    try {
      const first = (await api(small.url, "POST", "/v1/sessions", { task_id: "jira-transition-v1/eval/0" }))
        .body;
      local.advance(10_000);
      await api(small.url, "POST", "/v1/sessions", { task_id: "jira-transition-v1/eval/1" });
      const refused = await api(small.url, "POST", "/v1/sessions", { task_id: "jira-transition-v1/eval/2" });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("20");
      expect(refused.body.code).toBe("capacity");
      local.advance(20_000);
      expect(
        (await api(small.url, "POST", "/v1/sessions", { task_id: "jira-transition-v1/eval/2" })).status,
      ).toBe(200);
      const rest = await api(small.url, "GET", `/s/${first.session_id}/rest/api/3/issue/ENG-1`);
      expect(rest.status).toBe(404);
      expect(rest.body.errorMessages[0]).toMatch(/reaped/);
      expect(small.sites.has(first.session_id)).toBe(false);
    } finally {
      await small.close();
    }
  });
});

describe("the server's reaper", () => {
  it("closes idle MCP sessions and evicts idle isolated sites on its timer, with no new request", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const local = fakeClock();
    const small = await startGymServer({
      port: 0,
      seed: 1,
      siteTtlMs: 60_000,
      clock: local.now,
      reapEveryMs: 5000,
    });
    try {
      expect((await api(small.url, "GET", "/s/scratch/rest/api/3/myself")).status).toBe(200);
      const init = await api(small.url, "POST", "/mcp", initializeRequest(1, "t"), {
        accept: "application/json, text/event-stream",
      });
      expect(init.status).toBe(200);
      expect([small.sites.size, small.mcp.size]).toEqual([1, 1]);
      local.advance(10 * 60_000);
      expect([small.sites.size, small.mcp.size]).toEqual([1, 1]);
      vi.advanceTimersByTime(5000);
      expect([small.sites.size, small.mcp.size]).toEqual([0, 0]);
    } finally {
      vi.useRealTimers();
      await small.close();
    }
  });
});
