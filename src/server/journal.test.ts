/**
 * The journal in process: a server built on a journal folder that another (abandoned, as after kill -9)
 * server wrote rebuilds every open session under its id, and the sessions continue exactly as if
 * nothing had happened; numbered calls retried across the restart are not applied twice; closed
 * sessions leave nothing; a journal that no longer replays is set aside, not half-restored; calls and
 * the final answer of a bound MCP session are journaled and replayed too. A torn last line is cut off
 * before anything is appended after it; a file unreadable elsewhere is set aside and reported while the
 * other sessions are served; a line whose write was short or failed part way never leaves a partial line.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { connectHttp, solveOverMcp, submitFinalAnswer } from "../../test/mcp-support.ts";
import { faults } from "../../test/support/faulty-fs.ts";
import { sessionFiles } from "../../test/support/journal-files.ts";
import { handlerApi } from "../../test/support/json-api.ts";
import { restRequestFor } from "../../test/support/rest-request.ts";
import { recordReference } from "../agent/scripted/replay.ts";
import { tasksFor } from "../scenarios/frozen.ts";
import { findScenario } from "../scenarios/index.ts";
import { defaultTools } from "../tools/catalogue.ts";
import { createJournal, type SessionRecord } from "./journal.ts";
import { createGymHandler } from "./start-gym-server.ts";

// Writes to the journal can be made short or failing (a full disk), one call at a time (test/support/faulty-fs.ts).
vi.mock("node:fs", async (importOriginal) =>
  (await import("../../test/support/faulty-fs.ts")).faultyFs(await importOriginal()),
);

type Handler = ReturnType<typeof createGymHandler>;

/** A JSON call on a server in process: its status and body (headers left out, so answers compare). */
async function call(handler: Handler, method: string, path: string, body?: unknown) {
  const { status, body: answer } = await handlerApi(handler.fetch)(method, path, body);
  return { status, body: answer };
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
    expect(sessionFiles(dir).sort()).toEqual(ids.map((id) => `${id}.jsonl`).sort());
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
    expect(sessionFiles(dir)).toEqual([]);
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
    // Another call under that number is refused after the restart too (the journal keeps the call as sent).
    const another = await call(after, "POST", path(second!.name), { arguments: second!.arguments, seq: 1 });
    expect(another.body).toMatchObject({ code: "seq_conflict", last_seq: 1 });
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

  it("cuts off a torn last line before appending: every complete record replays after each restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-journal-"));
    const before = createGymHandler({ seed: 1, journal: dir });
    const ids = await openAll(before);
    await play(before, ids, 0, 2);
    const expected = (await call(before, "GET", `/v1/sessions/${ids[0]}/trace`)).body;
    // The server is killed in the middle of writing its next line (or the disk filled, or power went).
    const file = join(dir, `${ids[0]}.jsonl`);
    const clean = readFileSync(file, "utf8");
    appendFileSync(file, '{"t":"step","name":"jira_get_iss');

    const after = createGymHandler({ seed: 1, journal: dir });
    expect(after.restored).toEqual({ restored: [...ids].sort(), failed: [] });
    expect(readFileSync(file, "utf8")).toBe(clean); // the torn line is cut off at once
    expect((await call(after, "GET", `/v1/sessions/${ids[0]}/trace`)).body).toEqual(expected);
    await play(after, ids, 2, 3); // one more call on each session, then killed again
    const lines = readFileSync(file, "utf8").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((line) => JSON.parse(line).n)).toEqual([undefined, 1, 2, 3]);
    const continued = (await call(after, "GET", `/v1/sessions/${ids[0]}/trace`)).body;

    const again = createGymHandler({ seed: 1, journal: dir });
    expect(again.restored).toEqual({ restored: [...ids].sort(), failed: [] });
    expect((await call(again, "GET", `/v1/sessions/${ids[0]}/trace`)).body).toEqual(continued);
    expect(continued.calls).toHaveLength(3);
    await play(again, ids, 3, 99);
    const scores = await finish(again, ids);
    expect(scores.map((r: { score: { reward: number } }) => r.score.reward)).toEqual([1, 1, 1]);
  });

  it("keeps a last line that is a whole record lacking only its newline, and ends it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-journal-"));
    const before = createGymHandler({ seed: 1, journal: dir });
    const [id] = await openAll(before);
    await play(before, [id!], 0, 2);
    const expected = (await call(before, "GET", `/v1/sessions/${id}/trace`)).body;
    const file = join(dir, `${id}.jsonl`);
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.slice(0, -1)); // its write stopped one byte short
    const after = createGymHandler({ seed: 1, journal: dir });
    expect(after.restored?.failed).toEqual([]);
    expect(readFileSync(file, "utf8")).toBe(text);
    expect((await call(after, "GET", `/v1/sessions/${id}/trace`)).body).toEqual(expected);
  });

  it("sets aside a journal with a bad line before its last, and serves the other sessions", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-journal-"));
    const before = createGymHandler({ seed: 1, journal: dir });
    const ids = await openAll(before);
    await play(before, ids, 0, 3);
    const traces = [];
    for (const id of ids) traces.push((await call(before, "GET", `/v1/sessions/${id}/trace`)).body);
    // What the old append left: a torn line with the next record glued onto it, then more lines.
    const file = join(dir, `${ids[0]}.jsonl`);
    const lines = readFileSync(file, "utf8").split("\n");
    lines[2] = `{"t":"step","name":"jira_get${lines[2]}`;
    writeFileSync(file, lines.join("\n"));
    // And a session whose opening line itself was torn: it holds no complete line.
    const torn = "ses-00000000-0000-4000-8000-000000000000";
    writeFileSync(join(dir, `${torn}.jsonl`), '{"t":"open","v":3,"request":{"task_');

    const after = createGymHandler({ seed: 1, journal: dir });
    expect(after.restored?.restored).toEqual(ids.slice(1).sort());
    expect(after.restored?.failed).toHaveLength(2);
    expect(after.restored?.failed).toContainEqual({
      id: ids[0],
      reason: expect.stringMatching(/^line 3 of ses-[\w-]+\.jsonl is not a journal record: /),
    });
    expect(after.restored?.failed).toContainEqual({
      id: torn,
      reason: expect.stringMatching(/no complete line/),
    });
    expect(existsSync(`${file}.failed`)).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(readFileSync(join(dir, `${torn}.jsonl.failed`), "utf8")).toContain("task_"); // kept as found
    expect((await call(after, "GET", `/v1/sessions/${ids[0]}/trace`)).status).toBe(404);
    for (const [i, id] of ids.entries())
      if (i > 0) expect((await call(after, "GET", `/v1/sessions/${id}/trace`)).body).toEqual(traces[i]);
    // A start after it finds only the sessions it served.
    expect(createGymHandler({ seed: 1, journal: dir }).restored).toEqual({
      restored: ids.slice(1).sort(),
      failed: [],
    });
  });
});

describe("journal writes", () => {
  const step = (n: number): SessionRecord => ({
    t: "step",
    name: "jira_get_issue",
    arguments: { issueIdOrKey: `ENG-${n}`, pad: "x".repeat(40) },
    set: "default",
    obs: "o",
    n,
  });
  const open = { t: "open" as const, v: 3, request: { task_id: TASKS[0]! }, origin: "http://gym.test" };

  it("writes the rest of a line after a short write", () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-journal-"));
    const journal = createJournal(dir);
    journal.append("ses-a", open);
    faults.queue.push("short", "short");
    journal.append("ses-a", step(1));
    journal.append("ses-a", step(2));
    journal.close();
    expect(faults.queue).toEqual([]);
    expect(createJournal(dir).load()).toEqual([{ id: "ses-a", open, records: [step(1), step(2)] }]);
  });

  it("cuts off the part of a line written before a write failed; the next line starts clean", () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-journal-"));
    const journal = createJournal(dir);
    journal.append("ses-a", open);
    journal.append("ses-a", step(1));
    const file = join(dir, "ses-a.jsonl");
    const before = readFileSync(file, "utf8");
    faults.queue.push("short", "enospc"); // the disk fills part way through the line
    expect(() => journal.append("ses-a", step(2))).toThrow(/ENOSPC/);
    expect(readFileSync(file, "utf8")).toBe(before);
    journal.append("ses-a", step(2)); // space freed: the record is written again, whole
    journal.close();
    expect(createJournal(dir).load()).toEqual([{ id: "ses-a", open, records: [step(1), step(2)] }]);
  });
});
