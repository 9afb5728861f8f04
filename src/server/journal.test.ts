/**
 * The journal in process: a server built on a journal folder that another (abandoned, as after kill -9)
 * server wrote rebuilds every open session under its id, and the sessions continue exactly as if
 * nothing had happened; numbered calls retried across the restart are not applied twice; closed
 * sessions leave nothing; a journal that no longer replays is set aside, not half-restored; calls and
 * the final answer of a bound MCP session are journaled and replayed too.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectHttp, solveOverMcp, submitFinalAnswer } from "../../test/mcp-support.ts";
import { restRequestFor } from "../../test/support/rest-request.ts";
import { recordReference } from "../agent/scripted/replay.ts";
import { tasksFor } from "../scenarios/frozen.ts";
import { findScenario } from "../scenarios/index.ts";
import { defaultTools } from "../tools/catalogue.ts";
import { createGymHandler } from "./start-gym-server.ts";

type Handler = ReturnType<typeof createGymHandler>;

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked by the assertions
async function call(handler: Handler, method: string, path: string, body?: unknown): Promise<any> {
  const response = await handler.fetch(
    new Request(`http://gym.test${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return { status: response.status, ...(text ? { body: JSON.parse(text) } : {}) };
}

const TASKS = [
  "jira-transition-v1/eval/3",
  "jira-subtask-create-v1/eval/9",
  "confluence-page-create-v1/eval/1",
];

function script(taskId: string) {
  const [scenarioId, , index] = taskId.split("/") as [string, string, string];
  const scenario = findScenario(scenarioId);
  return recordReference(scenario, tasksFor(scenario, "eval", 1, Number(index))[0]!);
}

/** Plays calls [from, to) of each task's reference script on its session, numbered from `from + 1`. */
async function play(handler: Handler, ids: string[], from: number, to: number) {
  for (const [i, id] of ids.entries()) {
    const calls = script(TASKS[i]!).calls.slice(from, to);
    for (const [j, c] of calls.entries()) {
      const answer = await call(handler, "POST", `/v1/sessions/${id}/tools/${c.name}`, {
        arguments: c.arguments,
        seq: from + j + 1,
      });
      expect(answer.status).toBe(200);
    }
  }
}

async function finish(handler: Handler, ids: string[]) {
  const results = [];
  for (const [i, taskId] of TASKS.entries()) {
    const score = await call(handler, "POST", `/v1/sessions/${ids[i]}/score`, {
      final_message: script(taskId).final,
    });
    const trace = await call(handler, "GET", `/v1/sessions/${ids[i]}/trace`);
    results.push({ score: score.body, calls: trace.body.calls, final: trace.body.final_message });
  }
  // Session ids differ between runs, and appear in the `self` links of the sites' answers.
  return JSON.parse(JSON.stringify(results).replace(/ses-[0-9a-f-]{36}/g, "ses-*"));
}

async function openAll(handler: Handler): Promise<string[]> {
  const ids: string[] = [];
  for (const task_id of TASKS)
    ids.push((await call(handler, "POST", "/v1/sessions", { task_id })).body.session_id);
  return ids;
}

describe("serve --journal", () => {
  it("rebuilds every open session after a crash; they finish exactly as without it", async () => {
    const uninterrupted = createGymHandler({ seed: 1 });
    const plainIds = await openAll(uninterrupted);
    await play(uninterrupted, plainIds, 0, 99);
    const expected = await finish(uninterrupted, plainIds);
    expect(expected.map((r: { score: { reward: number } }) => r.score.reward)).toEqual([1, 1, 1]);

    const dir = mkdtempSync(join(tmpdir(), "atlas-journal-"));
    const before = createGymHandler({ seed: 1, journal: dir });
    const ids = await openAll(before);
    await play(before, ids, 0, 1);
    expect(readdirSync(dir).sort()).toEqual(ids.map((id) => `${id}.jsonl`).sort());
    // The first server is abandoned here without closing anything, as a killed process would be.

    const after = createGymHandler({ seed: 1, journal: dir });
    expect(after.restored).toEqual({ restored: [...ids].sort(), failed: [] });
    expect(
      (await call(after, "GET", "/v1/sessions")).body.sessions
        .map((s: { session_id: string }) => s.session_id)
        .sort(),
    ).toEqual([...ids].sort());
    await play(after, ids, 1, 99);
    const results = await finish(after, ids);
    expect(results).toEqual(expected);

    // A third start rebuilds the finished sessions too (scores and final messages included).
    const again = createGymHandler({ seed: 1, journal: dir });
    expect(again.restored?.restored).toHaveLength(3);
    expect(await finish(again, ids)).toEqual(expected);
    for (const id of ids) expect((await call(again, "DELETE", `/v1/sessions/${id}`)).status).toBe(200);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("answers a retried call from the journal instead of applying it twice", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-journal-"));
    const before = createGymHandler({ seed: 1, journal: dir });
    const [id] = await openAll(before);
    const [first, second] = script(TASKS[0]!).calls;
    const path = (name: string) => `/v1/sessions/${id}/tools/${name}`;
    const answer = await call(before, "POST", path(first!.name), { arguments: first!.arguments, seq: 1 });

    const after = createGymHandler({ seed: 1, journal: dir });
    // The client never saw the answer (the server died), so it sends call 1 again.
    expect(await call(after, "POST", path(first!.name), { arguments: first!.arguments, seq: 1 })).toEqual(
      answer,
    );
    expect((await call(after, "GET", `/v1/sessions/${id}/trace`)).body.calls).toHaveLength(1);
    const skipped = await call(after, "POST", path(second!.name), { arguments: second!.arguments, seq: 3 });
    expect(skipped.status).toBe(409);
    expect(skipped.body).toMatchObject({
      code: "seq_conflict",
      error: expect.stringContaining("send 2"),
      last_seq: 1,
    });
    expect(
      (await call(after, "POST", path(second!.name), { arguments: second!.arguments, seq: 2 })).status,
    ).toBe(200);
    expect((await call(after, "GET", `/v1/sessions/${id}/trace`)).body.calls).toHaveLength(2);
  });

  it("journals operations run over REST on a session's site, and replays them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-journal-"));
    const before = createGymHandler({ seed: 1, journal: dir });
    const opened = (await call(before, "POST", "/v1/sessions", { task_id: TASKS[0] })).body;
    const tools = defaultTools();
    for (const c of script(TASKS[0]!).calls) {
      const request = restRequestFor(tools.get(c.name)!, c.arguments as Record<string, unknown>);
      const path = `/s/${opened.session_id}${request.path}`;
      expect(
        (await call(before, request.method, path, request.body && JSON.parse(request.body))).status,
      ).toBeLessThan(300);
    }
    const expected = (await call(before, "POST", `/v1/sessions/${opened.session_id}/score`)).body;
    expect(expected.reward).toBe(1);
    const after = createGymHandler({ seed: 1, journal: dir });
    expect((await call(after, "POST", `/v1/sessions/${opened.session_id}/score`)).body).toEqual(expected);
  });

  it("sets aside a journal that no longer replays to the same state", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-journal-"));
    const before = createGymHandler({ seed: 1, journal: dir });
    const [id] = await openAll(before);
    await play(before, [id!], 0, 99);
    const file = join(dir, `${id}.jsonl`);
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const write = lines.findIndex((line) => line.includes('"hash"'));
    lines[write] = lines[write]!.replace(/"hash":"[0-9a-f]+"/, `"hash":"${"0".repeat(64)}"`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    const after = createGymHandler({ seed: 1, journal: dir });
    expect(after.restored?.restored).toHaveLength(2);
    expect(after.restored?.restored).not.toContain(id);
    expect(after.restored?.failed[0]).toMatchObject({
      id,
      reason: expect.stringMatching(/state hash differs/),
    });
    expect(existsSync(`${file}.failed`)).toBe(true);
    expect((await call(after, "GET", `/v1/sessions/${id}/trace`)).status).toBe(404);
  });

  it("journals calls from an MCP session bound to the env session, with its tool set", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-journal-"));
    const before = createGymHandler({ seed: 1, journal: dir });
    const [id] = await openAll(before);
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const rpc = (body: unknown, extra: Record<string, string> = {}) =>
      before.fetch(
        new Request(`http://gym.test/mcp?tools=rovo&session=${id}`, {
          method: "POST",
          headers: { ...headers, ...extra },
          body: JSON.stringify(body),
        }),
      );
    const init = await rpc({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    const mcpSession = {
      "mcp-session-id": init.headers.get("mcp-session-id")!,
      "mcp-protocol-version": "2025-06-18",
    };
    await rpc({ jsonrpc: "2.0", method: "notifications/initialized" }, mcpSession);
    const called = await rpc(
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "getJiraIssue", arguments: { issueIdOrKey: "WEB-9" } },
      },
      mcpSession,
    );
    expect(((await called.json()) as { result: { isError: boolean } }).result.isError).toBe(false);
    expect(readFileSync(join(dir, `${id}.jsonl`), "utf8")).toContain('"set":"rovo"');
    const expected = (await call(before, "GET", `/v1/sessions/${id}/trace`)).body;
    const after = createGymHandler({ seed: 1, journal: dir });
    expect(after.restored?.failed).toEqual([]);
    expect((await call(after, "GET", `/v1/sessions/${id}/trace`)).body).toEqual(expected);
  });

  it("journals a final answer given over MCP; the rebuilt session keeps it and scores the same", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-journal-"));
    const before = createGymHandler({ seed: 1, journal: dir });
    const { session_id: id } = (
      await call(before, "POST", "/v1/sessions", { task_id: "jira-assign-v1/eval/11" })
    ).body;
    const client = await connectHttp(
      `http://gym.test/mcp?tools=mcp-atlassian&session=${id}`,
      undefined,
      async (url, init) => before.fetch(new Request(url, init)),
    );
    const task = tasksFor(findScenario("jira-assign-v1"), "eval", 1, 11)[0]!;
    const final = await solveOverMcp(client, "mcp-atlassian", task);
    expect((await submitFinalAnswer(client, final)).isError).toBe(false);
    await client.close();
    const lines = readFileSync(join(dir, `${id}.jsonl`), "utf8")
      .trimEnd()
      .split("\n");
    expect(lines.map((line) => JSON.parse(line))).toContainEqual({
      t: "final",
      message: final,
      n: lines.length - 1,
    });
    const expected = (await call(before, "POST", `/v1/sessions/${id}/score`)).body;
    expect(expected).toMatchObject({ reward: 1, passed: true });

    const after = createGymHandler({ seed: 1, journal: dir });
    expect(after.restored).toEqual({ restored: [id], failed: [] });
    expect((await call(after, "GET", `/v1/sessions/${id}/trace`)).body.final_message).toBe(final);
    expect((await call(after, "POST", `/v1/sessions/${id}/score`)).body).toEqual(expected);
  });
});
