// The rollout loop with in-process policies: how episodes end, what the trace records, and that the
// scripted policies score through the loop exactly as when they play the episode directly.
import { describe, expect, it } from "vitest";
import { createEpisode } from "../env/episode.ts";
import { createRandom } from "../sandbox/random.ts";
import { tasksFor } from "../scenarios/frozen.ts";
import { findScenario } from "../scenarios/index.ts";
import { createPolicy } from "./providers/index.ts";
import { runEpisode } from "./rollout.ts";
import { SCRIPTED_POLICIES } from "./scripted/policies.ts";
import { systemPrompt } from "./system-prompt.ts";
import type { ChatMessage, Policy, PolicyTurn } from "./types.ts";

const scenario = findScenario("jira-transition-v1");
const [task] = tasksFor(scenario, "eval", 1);
const episode = () => createEpisode(scenario, task!);

/** A policy that answers with the given turns in order (the last one repeats). */
function turnsPolicy(turns: PolicyTurn[], seen: ChatMessage[][] = []): Policy {
  return {
    name: "turns",
    async next(messages) {
      seen.push(messages);
      return turns[Math.min(seen.length - 1, turns.length - 1)]!;
    },
  };
}
const callTurn = (...calls: [string, unknown][]): PolicyTurn => ({
  message: {
    role: "assistant",
    content: null,
    tool_calls: calls.map(([name, args], i) => ({
      id: `c${i}`,
      type: "function",
      function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
    })),
  },
  latencyMs: 1,
});
const answer = (content: string): PolicyTurn => ({ message: { role: "assistant", content }, latencyMs: 1 });

describe("runEpisode", () => {
  it("shows a model policy the view (tools, budget, calls made), never the episode or its task", async () => {
    const views: { keys: string[]; tools: number; budget: number; callsMade: number }[] = [];
    const turns = [callTurn(["jira_get_issue", { issueIdOrKey: "ENG-1" }]), answer("Done.")];
    const policy: Policy = {
      name: "viewer",
      async next(_messages, _tools, ctx) {
        // @ts-expect-error PolicyContext has no episode: only a TaskPolicy reaches the task
        const { episode: hidden } = ctx;
        expect(hidden).toBeUndefined();
        const { view } = ctx;
        views.push({
          keys: Object.keys(ctx),
          tools: view.tools.length,
          budget: view.budget,
          callsMade: view.callsMade,
        });
        return turns[views.length - 1]!;
      },
    };
    const played = episode();
    await runEpisode(played, policy);
    const budget = played.expectation.budget;
    expect(views).toEqual([
      { keys: ["view", "signal", "sample"], tools: scenario.tools.length, budget, callsMade: 0 },
      { keys: ["view", "signal", "sample"], tools: scenario.tools.length, budget, callsMade: 1 },
    ]);
  });

  it("opens with the system prompt and the task prompt, and terminates on an answer without calls", async () => {
    const seen: ChatMessage[][] = [];
    const trace = await runEpisode(episode(), turnsPolicy([answer("Nothing to do.")], seen), {
      model: "m",
      sample: 2,
    });
    expect(seen[0]).toEqual([
      { role: "system", content: systemPrompt(episode()) },
      { role: "user", content: task!.prompt },
    ]);
    expect(trace).toMatchObject({
      taskId: task!.id,
      scenario: scenario.id,
      split: "eval",
      index: 0,
      level: 1,
      sample: 2,
      model: "m",
      finalMessage: "Nothing to do.",
      terminated: true,
      truncated: false,
      calls: [],
    });
    expect(trace.truncation).toBeUndefined();
    expect(trace.score.violations.map((v) => v.code)).toContain("missing_mutation");
    // The task's expectation travels with the episode (episodes.jsonl), as plain data.
    expect(JSON.parse(JSON.stringify(trace)).expectation).toEqual(episode().expectation);
    expect(trace.expectation?.entities.length).toBeGreaterThan(0);
  });

  it("says nothing about the scenario in the system prompt", () => {
    const text = systemPrompt(episode()).toLowerCase();
    for (const hint of ["transition", "subtask", "sub-task", "label", "done"])
      expect(text).not.toContain(hint);
  });

  it("executes several calls of one turn in order, answering each with a tool message", async () => {
    const seen: ChatMessage[][] = [];
    const policy = turnsPolicy(
      [
        callTurn(
          ["jira_get_issue", { issueIdOrKey: "ENG-2" }],
          ["jira_get_transitions", { issueIdOrKey: "ENG-2" }],
        ),
        answer("ok"),
      ],
      seen,
    );
    const trace = await runEpisode(episode(), policy);
    expect(trace.calls.map((c) => [c.name, c.ok])).toEqual([
      ["jira_get_issue", true],
      ["jira_get_transitions", true],
    ]);
    expect(trace.turns.map((t) => [t.request, t.calls.length])).toEqual([
      [2, 2],
      [5, 0],
    ]);
    const tools = seen[1]!.slice(3);
    expect(tools.map((m) => [m.role, m.tool_call_id])).toEqual([
      ["tool", "c0"],
      ["tool", "c1"],
    ]);
    expect(tools[0]!.content).toBe(trace.calls[0]!.observation);
    expect(trace.messages).toHaveLength(6);
  });

  it("records malformed calls as the executor answered them and goes on", async () => {
    const trace = await runEpisode(
      episode(),
      turnsPolicy([
        callTurn(["jira_get_issue", '{"issueIdOrKey": "ENG-2"'], ["jira_fly", {}], ["", ""]),
        answer(""),
      ]),
    );
    expect(trace.calls.map((c) => c.errorType)).toEqual(["invalid_args", "unknown_tool", "unknown_tool"]);
    expect(trace).toMatchObject({ terminated: true, finalMessage: "" });
  });

  it("truncates when the call budget is spent, after recording the call past it", async () => {
    const read = callTurn(["jira_get_issue", { issueIdOrKey: "ENG-2" }]);
    const trace = await runEpisode(episode(), turnsPolicy([read]));
    const budget = episode().expectation.budget;
    expect(trace.calls).toHaveLength(budget + 1);
    expect(trace.calls.at(-1)!.errorType).toBe("budget");
    expect(trace).toMatchObject({
      terminated: false,
      truncated: true,
      truncation: "budget",
      finalMessage: null,
    });
    expect(trace.score.violations.map((v) => v.code)).toContain("budget_exceeded");
  });

  it("truncates at max turns", async () => {
    const read = callTurn(["jira_get_issue", { issueIdOrKey: "ENG-2" }]);
    const trace = await runEpisode(episode(), turnsPolicy([read]), { maxTurns: 2 });
    expect(trace).toMatchObject({ truncated: true, truncation: "max_turns" });
    expect(trace.turns).toHaveLength(2);
  });

  it("records a provider failure on the trace, scores what was done, and does not throw", async () => {
    const failed: PolicyTurn = {
      message: { role: "assistant", content: null },
      latencyMs: 3,
      error: { type: "server_error", message: "boom", status: 500 },
    };
    const trace = await runEpisode(
      episode(),
      turnsPolicy([callTurn(["jira_get_issue", { issueIdOrKey: "ENG-2" }]), failed]),
    );
    expect(trace).toMatchObject({
      truncated: true,
      truncation: "provider_error",
      error: { type: "server_error", status: 500 },
      finalMessage: null,
    });
    expect(trace.calls).toHaveLength(1);
    expect(trace.turns.at(-1)!.turn.error?.message).toBe("boom");
    expect(trace.score.reward).toBe(0);
  });

  it("stops before a request when the run is aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const trace = await runEpisode(episode(), turnsPolicy([answer("x")]), { signal: controller.signal });
    expect(trace).toMatchObject({ truncation: "provider_error", error: { type: "aborted" }, turns: [] });
  });

  it("scores in the requested reward mode", async () => {
    const trace = await runEpisode(episode(), createPolicy("policy:reference"), { reward: "gated" });
    expect(trace.score).toMatchObject({ mode: "gated", reward: 1, passed: true });
  });
});

describe("policy:<name> through the rollout", () => {
  const tasks = tasksFor(scenario, "eval", 4);
  it.each(SCRIPTED_POLICIES.map((p) => p.name))(
    "%s scores as when it plays the episode itself",
    async (name) => {
      const scripted = SCRIPTED_POLICIES.find((p) => p.name === name)!;
      for (const t of tasks) {
        const direct = createEpisode(scenario, t);
        scripted.play(direct, createRandom(`${t.id}:${name}:0`));
        const trace = await runEpisode(createEpisode(scenario, t), createPolicy(`policy:${name}`));
        expect(trace.score.reward).toBe(direct.score().reward);
        expect(trace.calls.map((c) => c.name)).toEqual(direct.calls.map((c) => c.name));
        expect(trace.turns.every((turn) => (turn.turn.message.tool_calls?.length ?? 0) <= 1)).toBe(true);
        const codes = trace.score.violations.map((v) => v.code);
        if (scripted.expectedViolations.length > 0)
          expect(scripted.expectedViolations.some((code) => codes.includes(code))).toBe(true);
      }
    },
  );
});
