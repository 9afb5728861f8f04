// openai: against a fake OpenAI-compatible server over real HTTP with the real openai client: a
// competent agent, the paper's silent failures, malformed outputs, and every kind of provider failure
// (which must land on the trace, scored, and never throw out of runEpisode).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Behaviour,
  type FakeReply,
  type FakeServer,
  failFirst,
  scriptedBehaviour,
  startFakeOpenAIServer,
} from "../../../test/support/fake-openai-server.ts";
import { createEpisode } from "../../env/episode.ts";
import { tasksFor } from "../../scenarios/frozen.ts";
import { findScenario } from "../../scenarios/index.ts";
import { runEpisode } from "../rollout.ts";
import type { EpisodeTrace } from "../types.ts";
import { createPolicy } from "./index.ts";
import type { ProviderOptions } from "./settings.ts";

const scenario = findScenario("jira-transition-v1");
const tasks = tasksFor(scenario, "eval");
const entries = tasks.map((task) => ({ scenario, task }));
const competent = scriptedBehaviour("reference", entries);

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer(competent);
});
afterAll(() => server.close());

const sleeps: number[] = [];
const noSleep = async (ms: number) => {
  sleeps.push(ms);
};

async function run(
  behaviour: Behaviour,
  options: ProviderOptions = {},
  task = tasks[0]!,
): Promise<EpisodeTrace> {
  server.setBehaviour(behaviour);
  const policy = createPolicy(`openai:${server.baseURL}#fake-model`, {
    sleep: noSleep,
    retries: 2,
    ...options,
  });
  return runEpisode(createEpisode(scenario, task), policy, { model: "fake-model" });
}
const violations = (trace: EpisodeTrace) => trace.score.violations.map((v) => v.code);
const say =
  (message: Extract<FakeReply, { message: unknown }>["message"]): Behaviour =>
  () => ({ message });

describe("openai: provider with a competent agent", () => {
  it("solves every jira-transition-v1 eval task, one call per request", async () => {
    for (const task of tasks) {
      const trace = await run(competent, {}, task);
      expect(trace).toMatchObject({ terminated: true, truncated: false, score: { reward: 1, passed: true } });
      expect(trace.turns.length).toBe(trace.calls.length + 1);
      expect(trace.finalMessage).toMatch(/Done|now/);
    }
  });

  it("sends the tools, tool_choice auto, sampling settings, chat_template_kwargs and the API key", async () => {
    const before = server.requests.length;
    const trace = await run(competent, {
      temperature: 0.6,
      topP: 0.95,
      maxTokens: 512,
      seed: 7,
      chatTemplateKwargs: { enable_thinking: false },
      apiKeyEnv: "FAKE_KEY",
      env: { FAKE_KEY: "sk-test" },
    });
    const body = server.requests[before]!.body;
    expect(body).toMatchObject({
      model: "fake-model",
      tool_choice: "auto",
      temperature: 0.6,
      top_p: 0.95,
      max_tokens: 512,
      seed: 7,
      chat_template_kwargs: { enable_thinking: false },
    });
    expect(body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(
      createEpisode(scenario, tasks[0]!)
        .functionTools()
        .map((t) => t.function.name),
    );
    expect(body.messages.slice(0, 2).map((m: { role: string }) => m.role)).toEqual(["system", "user"]);
    const second = server.requests[before + 1]!.body.messages;
    expect(second.slice(2).map((m: { role: string }) => m.role)).toEqual(["assistant", "tool"]);
    expect(second[3].tool_call_id).toBe(second[2].tool_calls[0].id);
    expect(trace.turns[0]!.turn.usage).toEqual({
      promptTokens: expect.any(Number),
      completionTokens: expect.any(Number),
    });
    expect(trace.turns[0]!.turn.usage!.promptTokens).toBeGreaterThan(100);
  });
});

describe("openai: provider seeds", () => {
  it("offsets the seed by the sample number, so k samples are k reproducible draws", async () => {
    server.setBehaviour(competent);
    const policy = createPolicy(`openai:${server.baseURL}#fake-model`, { seed: 7 });
    const before = server.requests.length;
    await runEpisode(createEpisode(scenario, tasks[0]!), policy, { sample: 2 });
    expect(server.requests.slice(before).map((r) => r.body.seed)).toEqual(
      server.requests.slice(before).map(() => 9),
    );
  });
});

describe("openai: provider with the paper's silent failures", () => {
  it.each([
    ["read-only", "early_stop_after_read"],
    ["drop-field", "dropped_required_field"],
    ["hallucinate", "hallucinated_tool"],
  ])("%s is scored as %s", async (policy, code) => {
    const trace = await run(scriptedBehaviour(policy, entries));
    expect(trace.terminated).toBe(true);
    expect(trace.score.reward).toBe(0);
    expect(violations(trace)).toContain(code);
  });
});

describe("openai: provider with malformed output", () => {
  const call = (name: string, args: unknown) => ({
    content: null,
    tool_calls: [{ function: { name, arguments: args } }],
  });
  it("records broken JSON arguments as an invalid call the model is told about", async () => {
    const trace = await run(
      failFirst(1, { message: call("jira_get_issue", '{"issueIdOrKey": "ENG-') }, say({ content: "x" })),
    );
    expect(trace.calls[0]).toMatchObject({ errorType: "invalid_args", arguments: '{"issueIdOrKey": "ENG-' });
    expect(trace.messages[3]!.content).toMatch(/not valid JSON/);
  });
  it("rejects arguments that are a string of a string", async () => {
    const doubled = JSON.stringify(JSON.stringify({ issueIdOrKey: "ENG-2" }));
    const trace = await run(
      failFirst(1, { message: call("jira_get_issue", doubled) }, say({ content: "x" })),
    );
    expect(trace.calls[0]).toMatchObject({
      errorType: "invalid_args",
      observation: expect.stringMatching(/JSON object/),
    });
  });
  it("accepts arguments sent as an object instead of a string", async () => {
    const trace = await run(
      failFirst(1, { message: call("jira_get_issue", { issueIdOrKey: "ENG-2" }) }, say({ content: "x" })),
    );
    expect(trace.calls[0]).toMatchObject({ ok: true, name: "jira_get_issue" });
  });
  it("reads a tool call the server left in the text, and records that it did", async () => {
    const text =
      'Let me look.\n<tool_call>\n{"name": "jira_get_issue", "arguments": {"issueIdOrKey": "ENG-2"}}\n</tool_call>';
    const trace = await run(failFirst(1, { message: { content: text } }, say({ content: "x" })));
    expect(trace.calls[0]).toMatchObject({ ok: true, name: "jira_get_issue" });
    expect(trace.turns[0]!.turn).toMatchObject({ raw: text, message: { content: "Let me look." } });
    expect(trace.turns[0]!.turn.problems?.[0]).toMatch(/read from the message text/);
  });
  it("scores an unknown tool as hallucinated", async () => {
    const trace = await run(
      failFirst(1, { message: call("jira_fix_everything", "{}") }, say({ content: "x" })),
    );
    expect(trace.calls[0]!.errorType).toBe("unknown_tool");
    expect(violations(trace)).toContain("hallucinated_tool");
  });
  it("ends the episode on an empty reply", async () => {
    const trace = await run(say({ content: "" }));
    expect(trace).toMatchObject({ terminated: true, finalMessage: "", calls: [] });
    expect(violations(trace)).toContain("missing_mutation");
  });
  it("splits a think block out of the content and keeps server reasoning", async () => {
    const trace = await run(say({ content: "<think>\nhm\n</think>\n\nNo.", reasoning_content: undefined }));
    expect(trace.turns[0]!.turn.message).toMatchObject({ content: "No.", reasoning: "hm" });
    const other = await run(say({ content: "No.", reasoning_content: "thought" }));
    expect(other.turns[0]!.turn.message).toMatchObject({ content: "No.", reasoning: "thought" });
  });
  it("records a body that is not JSON as an invalid response", async () => {
    const trace = await run(() => ({ rawBody: "{not json" }));
    expect(trace).toMatchObject({ truncation: "provider_error", error: { type: "invalid_response" } });
  });
});

describe("openai: provider failures are data on the trace", () => {
  it("waits as Retry-After says after a 429, then succeeds", async () => {
    sleeps.length = 0;
    const trace = await run(failFirst(1, { status: 429, headers: { "retry-after": "7" } }, competent));
    expect(sleeps).toEqual([7000]);
    expect(trace.score.reward).toBe(1);
  });
  it("backs off exponentially on 5xx and records the last failure", async () => {
    sleeps.length = 0;
    const trace = await run(() => ({ status: 500, body: { error: { message: "kaput" } } }));
    expect(sleeps).toEqual([500, 1000]);
    expect(trace).toMatchObject({
      truncated: true,
      truncation: "provider_error",
      error: { type: "server_error", status: 500 },
      score: { reward: 0 },
    });
    expect(trace.error!.message).toMatch(/kaput/);
  });
  it("does not retry a 400", async () => {
    sleeps.length = 0;
    const trace = await run(() => ({
      status: 400,
      body: { error: { message: "tool_choice needs --enable-auto-tool-choice" } },
    }));
    expect(sleeps).toEqual([]);
    expect(trace.error).toMatchObject({ type: "bad_request", status: 400 });
  });
  it("records a timeout", async () => {
    const trace = await run(() => ({ hang: true }), { timeoutMs: 50, retries: 1 });
    expect(trace).toMatchObject({ truncation: "provider_error", error: { type: "timeout" } });
  });
  it("retries a dropped connection, mid-episode, and finishes", async () => {
    let n = 0;
    const trace = await run((request) => (n++ === 1 ? { drop: true } : competent(request)));
    expect(trace.score.reward).toBe(1);
    const failed = await run(() => ({ drop: true }));
    expect(failed.error).toMatchObject({ type: "connection" });
  });
  it("keeps the calls made before the provider failed on the scored trace", async () => {
    let n = 0;
    const trace = await run((request) => (n++ < 2 ? competent(request) : { status: 503 }));
    const reference = (await run(competent)).calls;
    expect(trace.calls.map((c) => c.name)).toEqual(reference.slice(0, 2).map((c) => c.name));
    const replayed = createEpisode(scenario, tasks[0]!);
    for (const c of reference.slice(0, 2)) replayed.step({ name: c.name, arguments: c.arguments });
    expect(trace.score).toEqual(replayed.score());
    expect(trace.error).toMatchObject({ type: "server_error", status: 503 });
  });
  it("records an unreachable server without throwing", async () => {
    const policy = createPolicy("openai:http://127.0.0.1:9/v1#m", { sleep: noSleep, retries: 0 });
    const trace = await runEpisode(createEpisode(scenario, tasks[0]!), policy);
    expect(trace.error).toMatchObject({ type: "connection" });
  });
});
