/**
 * The final answer over MCP (Streamable HTTP on a real loopback port, the SDK's own client): a task that
 * must be declined (jira-assign-v1 eval 11: nobody by that name) solved by its mcp-atlassian alias
 * solution and ended with `submit_final_answer` passes at /v1/sessions/{sid}/score without any
 * `final_message`; without the tool call it fails with no_final_answer. The tool is off the trace and the
 * budget, shown in the score resource, rejects an empty answer, and exists only on bound sessions.
 * (test/mcp-stdio.test.ts plays the same over the stdio relay and the one-task mode.)
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEvalSplit } from "../src/scenarios/frozen.ts";
import { findScenario } from "../src/scenarios/index.ts";
import { SCORE_URI } from "../src/server/mcp/create-mcp-server.ts";
import { FINAL_ANSWER_TOOL } from "../src/server/mcp/final-answer.ts";
import { type RunningGymServer, startGymServer } from "../src/server/start-gym-server.ts";
import { allToolNames } from "../src/tools/aliases/tool-sets.ts";
import { connectHttp, readJson, solveOverMcp, submitFinalAnswer } from "./mcp-support.ts";

const REFUSAL = { scenario: "jira-assign-v1", split: "eval", index: 11 } as const;
const task = loadEvalSplit(findScenario(REFUSAL.scenario)).tasks[REFUSAL.index]!;

interface ScoreJson {
  reward: number;
  passed: boolean;
  explanation: string;
  violations: { code: string }[];
  final_answer?: string | null;
}

let server: RunningGymServer;
const clients: Client[] = [];
beforeAll(async () => {
  server = await startGymServer({ port: 0, seed: 1 });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
});

const connect = async (query: string) => {
  const client = await connectHttp(`${server.url}/mcp${query}`);
  clients.push(client);
  return client;
};
const trace = async (sid: string) =>
  (await (await fetch(`${server.url}/v1/sessions/${sid}/trace`)).json()) as {
    calls: { name: string }[];
    final_message: string | null;
  };
/** Opens an env-server session on the refusal task: its opening (the tools a trainer offers, ...). */
const openSession = async () =>
  (await (
    await fetch(`${server.url}/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(REFUSAL),
    })
  ).json()) as { session_id: string; tools: { function: { name: string } }[] };
const openRefusal = async () => (await openSession()).session_id;
/** The score request with no body: no final_message, so only what came over MCP counts. */
const scoreOf = async (sid: string) =>
  (await (await fetch(`${server.url}/v1/sessions/${sid}/score`, { method: "POST" })).json()) as ScoreJson;

describe(`${FINAL_ANSWER_TOOL} on a session bound to an env-server episode`, () => {
  it("earns a refusal over MCP alone: passed, reward 1, without final_message", async () => {
    expect(task.prompt).toContain("Priya Natarajan-Iyer");
    const sid = await openRefusal();
    const client = await connect(`?tools=mcp-atlassian&session=${sid}`);
    expect(client.getInstructions()).toContain(FINAL_ANSWER_TOOL);
    const final = await solveOverMcp(client, "mcp-atlassian", task);
    const confirmed = await submitFinalAnswer(client, final);
    expect(confirmed.isError).toBe(false);
    expect(confirmed.text).toMatch(/^Final answer recorded/);
    const score = await scoreOf(sid);
    expect(score.reward, score.explanation).toBe(1);
    expect(score.passed).toBe(true);
    const resource = await readJson<ScoreJson>(client, SCORE_URI);
    expect(resource).toMatchObject({ reward: 1, passed: true, final_answer: final });
    // Off the trace: every recorded call is a site tool of the set, none is the final answer.
    const { calls, final_message } = await trace(sid);
    expect(final_message).toBe(final);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.map((c) => c.name)).not.toContain(FINAL_ANSWER_TOOL);
  });

  it("without it the same solution fails with no_final_answer", async () => {
    const sid = await openRefusal();
    const client = await connect(`?tools=mcp-atlassian&session=${sid}`);
    await solveOverMcp(client, "mcp-atlassian", task);
    const score = await scoreOf(sid);
    expect(score.passed).toBe(false);
    expect(score.reward).toBeLessThan(1);
    expect(score.violations.map((v) => v.code)).toContain("no_final_answer");
    expect((await readJson<ScoreJson>(client, SCORE_URI)).final_answer).toBeNull();
  });

  it("rejects an empty or non-string answer and records nothing", async () => {
    const sid = await openRefusal();
    const client = await connect(`?tools=mcp-atlassian&session=${sid}`);
    for (const answer of ["   ", 42]) expect((await submitFinalAnswer(client, answer)).isError).toBe(true);
    expect((await readJson<ScoreJson>(client, SCORE_URI)).final_answer).toBeNull();
    expect((await trace(sid)).final_message).toBeNull();
  });

  it("is listed on bound sessions only, and is no tool of any tool set", async () => {
    const opening = await openSession();
    const sid = opening.session_id;
    const bound = (await (await connect(`?tools=mcp-atlassian&session=${sid}`)).listTools()).tools;
    const tool = bound.find((t) => t.name === FINAL_ANSWER_TOOL);
    expect(tool?.inputSchema).toMatchObject({ required: ["answer"] });
    const free = await connect("?tools=mcp-atlassian");
    expect((await free.listTools()).tools.map((t) => t.name)).not.toContain(FINAL_ANSWER_TOOL);
    expect(free.getInstructions()).not.toContain(FINAL_ANSWER_TOOL);
    expect((await submitFinalAnswer(free, "done")).isError).toBe(true);
    expect(allToolNames().has(FINAL_ANSWER_TOOL)).toBe(false);
    // The env server's tools (the opening's) are for trainers, which send final_message instead.
    expect(opening.tools.length).toBeGreaterThan(0);
    expect(opening.tools.map((t) => t.function.name)).not.toContain(FINAL_ANSWER_TOOL);
  });
});
