// raw: against the fake server's /v1/completions: the prompt the server receives is the model's own
// format (checked against the golden renderers), the completion text is parsed back into calls, and a
// competent agent writing Qwen3 or Qwen3.5 text solves the task.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Behaviour,
  type FakeServer,
  failFirst,
  scriptedBehaviour,
  startFakeOpenAIServer,
} from "../../../test/support/fake-openai-server.ts";
import { createEpisode } from "../../env/episode.ts";
import { tasksFor } from "../../scenarios/frozen.ts";
import { findScenario } from "../../scenarios/index.ts";
import { chatFormat, type FormatName } from "../formats/index.ts";
import { runEpisode } from "../rollout.ts";
import { createPolicy } from "./index.ts";
import type { ProviderOptions } from "./settings.ts";

const scenario = findScenario("jira-transition-v1");
const tasks = tasksFor(scenario, "eval", 4);
const competent = scriptedBehaviour(
  "reference",
  tasks.map((task) => ({ scenario, task })),
);

/** Plays a chat behaviour on /v1/completions, writing its answers as Qwen3 or Qwen3.5 text. */
function asText(behaviour: Behaviour, format: FormatName): Behaviour {
  return async (request) => {
    const prompt = String(request.body.prompt);
    const user = /<\|im_start\|>user\n([\s\S]*?)<\|im_end\|>/.exec(prompt)?.[1] ?? "";
    const turns = prompt.split("<|im_start|>assistant").length - 2;
    const messages = [
      { role: "user", content: user },
      ...Array.from({ length: turns }, () => ({ role: "assistant" })),
    ];
    const reply = await behaviour({ ...request, path: "/v1/chat/completions", body: { messages } });
    if (!("message" in reply)) return reply;
    const calls = (reply.message.tool_calls ?? []).map(({ function: f }) => {
      const args = JSON.parse(String(f.arguments)) as Record<string, unknown>;
      if (format === "qwen3")
        return `<tool_call>\n{"name": "${f.name}", "arguments": ${JSON.stringify(args)}}\n</tool_call>`;
      const params = Object.entries(args).map(
        ([k, v]) => `<parameter=${k}>\n${typeof v === "string" ? v : JSON.stringify(v)}\n</parameter>\n`,
      );
      return `<tool_call>\n<function=${f.name}>\n${params.join("")}</function>\n</tool_call>`;
    });
    const thought = "Working through the request.";
    const head = format === "qwen3" ? `<think>\n${thought}\n</think>\n\n` : `${thought}\n</think>\n\n`;
    return { text: `${head}${calls.length > 0 ? calls.join("\n") : (reply.message.content ?? "")}` };
  };
}

let server: FakeServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer(competent);
});
afterAll(() => server.close());

const run = async (behaviour: Behaviour, model: string, options: ProviderOptions = {}) => {
  server.setBehaviour(behaviour);
  const before = server.requests.length;
  const policy = createPolicy(`raw:${server.baseURL}#${model}`, { sleep: async () => {}, ...options });
  const trace = await runEpisode(createEpisode(scenario, tasks[0]!), policy);
  return { trace, requests: server.requests.slice(before) };
};

describe.each<[FormatName, string]>([
  ["qwen3", "Qwen/Qwen3-8B"],
  ["qwen3.5", "Qwen/Qwen3.5-4B"],
])("raw: with the %s format", (format, model) => {
  it("solves the task from text completions, rendering each prompt in the model's format", async () => {
    const { trace, requests } = await run(asText(competent, format), model);
    expect(trace.score).toMatchObject({ reward: 1, passed: true });
    expect(requests).toHaveLength(trace.turns.length);
    const tools = createEpisode(scenario, tasks[0]!).functionTools();
    trace.turns.forEach(({ request }, i) => {
      expect(requests[i]!.body.prompt).toBe(
        chatFormat(format).render(trace.messages.slice(0, request), tools),
      );
      expect(requests[i]!.body.stop).toContain("<|im_end|>");
    });
    expect(trace.turns[0]!.turn).toMatchObject({
      raw: expect.stringContaining("<tool_call>"),
      message: { reasoning: "Working through the request.", content: "" },
      usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number) },
    });
  });

  it("closes the think block in the prompt when thinking is off, and sends no chat_template_kwargs", async () => {
    const { requests } = await run(asText(competent, format), model, {
      chatTemplateKwargs: { enable_thinking: false },
      temperature: 0.7,
    });
    expect(requests[0]!.body.prompt.endsWith("<|im_start|>assistant\n<think>\n\n</think>\n\n")).toBe(true);
    expect(requests[0]!.body).toMatchObject({ temperature: 0.7 });
    expect(requests[0]!.body.chat_template_kwargs).toBeUndefined();
  });
});

describe("raw: with malformed text", () => {
  it("executes a call with broken JSON as an invalid call and records the parse problem", async () => {
    const { trace } = await run(
      failFirst(
        1,
        { text: '<tool_call>\n{"name": "jira_get_issue", "arguments": {"issueIdOrKey": \n</tool_call>' },
        () => ({ text: "ok" }),
      ),
      "Qwen/Qwen3-8B",
      { chatTemplateKwargs: { enable_thinking: false } },
    );
    expect(trace.calls[0]).toMatchObject({ name: "jira_get_issue", errorType: "invalid_args" });
    expect(trace.turns[0]!.turn.problems).toEqual(["tool call 'jira_get_issue' is not valid JSON"]);
    expect(trace).toMatchObject({ terminated: true, finalMessage: "ok" });
  });
  it("answers with the text when a block names no tool", async () => {
    const { trace } = await run(() => ({ text: "<tool_call>\n{}\n</tool_call>" }), "Qwen/Qwen3-8B", {
      chatTemplateKwargs: { enable_thinking: false },
    });
    expect(trace).toMatchObject({
      terminated: true,
      finalMessage: "<tool_call>\n{}\n</tool_call>",
      calls: [],
    });
  });
  it("uses the format asked for over the model name's", async () => {
    const { requests } = await run(() => ({ text: "no" }), "my-finetune", { rawFormat: "qwen3.5" });
    expect(requests[0]!.body.prompt).toContain("<function=example_function_name>");
  });
  it("retries a 429 and records a 500", async () => {
    const ok = await run(
      failFirst(1, { status: 429, headers: { "retry-after-ms": "5" } }, asText(competent, "qwen3")),
      "Qwen/Qwen3-8B",
    );
    expect(ok.trace.score.reward).toBe(1);
    const failed = await run(() => ({ status: 500 }), "Qwen/Qwen3-8B", { retries: 0 });
    expect(failed.trace).toMatchObject({
      truncation: "provider_error",
      error: { type: "server_error", status: 500 },
    });
  });
});
