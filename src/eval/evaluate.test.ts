/**
 * evaluate() end to end with real policies: scripted ones through createPolicy, and the openai: provider
 * (the real openai client) against the fake OpenAI-compatible server on loopback. Checks results.json,
 * failure counts, provider failures as data, and abort + resume without repeats or losses.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeServer,
  scriptedBehaviour,
  startFakeOpenAIServer,
} from "../../test/support/fake-openai-server.ts";
import { createScriptedPolicy } from "../agent/scripted/policy-adapter.ts";
import type { Policy, TaskPolicy } from "../agent/types.ts";
import { UsageError } from "../errors.ts";
import { tasksFor } from "../scenarios/frozen.ts";
import { findScenario } from "../scenarios/index.ts";
import { readEpisodeLog } from "./episode-log.ts";
import { type EvaluateOptions, evaluate } from "./evaluate.ts";
import type { EvalResults } from "./metrics.ts";
import { runFiles } from "./run-dir.ts";

const SCENARIOS = ["jira-transition-v1", "jira-subtask-create-v1"];
const tempDir = () => mkdtempSync(join(tmpdir(), "atlas-eval-"));
const base = {
  scenarios: SCENARIOS,
  split: "eval" as const,
  n: 2,
  k: 2,
  concurrency: 3,
  seed: 0,
  reward: "paper" as const,
  maxTurns: 30,
};

async function run(model: string, extra: Partial<EvaluateOptions> = {}) {
  const dir = extra.dir ?? tempDir();
  const summary = await evaluate({ dir, config: { ...base, model }, ...extra });
  const results = existsSync(runFiles(dir).results)
    ? (JSON.parse(readFileSync(runFiles(dir).results, "utf8")) as EvalResults)
    : undefined;
  return { dir, summary, results };
}

describe("evaluate with scripted policies", () => {
  it("policy:reference over 2 scenarios × 2 tasks × 2 samples: mean 1, pass rate 1, pass^2 1", async () => {
    const { dir, summary, results } = await run("policy:reference");
    expect(summary).toMatchObject({ ran: 8, skipped: 0, aborted: false });
    expect(results!.model).toBe("policy:reference");
    expect(results!.reward_mode).toBe("paper");
    for (const id of SCENARIOS) {
      expect(results!.scenarios[id]).toMatchObject({
        episodes: 4,
        mean_reward: 1,
        pass_rate: 1,
        pass_hat_k: 1,
      });
      expect(Object.values(results!.scenarios[id]!.failures).every((n) => n === 0)).toBe(true);
    }
    expect(results!.overall).toMatchObject({ episodes: 8, mean_reward: 1, min_reward: 1, std_reward: 0 });
    const log = readEpisodeLog(runFiles(dir).episodes);
    expect(log.episodes).toHaveLength(8);
    expect(log.episodes.every((e) => e.model === "policy:reference" && e.terminated)).toBe(true);
    expect(existsSync(runFiles(dir).reportMd) && existsSync(runFiles(dir).reportHtml)).toBe(true);
  });

  it("runs each task under its own turn limit unless one is given; truncated episodes are scored and counted", async () => {
    const { maxTurns: _, ...derived } = base;
    const dir = tempDir();
    await evaluate({ dir, config: { ...derived, n: 1, k: 1, model: "policy:reference" } });
    expect(JSON.parse(readFileSync(runFiles(dir).config, "utf8")).max_turns).toBeNull();
    const records = readEpisodeLog(runFiles(dir).episodes).episodes;
    for (const r of records) expect(r.max_turns).toBe((r.expectation as { budget: number }).budget + 1);
    // Under a limit of 2 the reference (one call a turn) is cut off: truncated, scored, no provider error.
    const { results } = await run("policy:reference", {
      config: { ...base, n: 1, k: 1, maxTurns: 2, model: "policy:reference" },
    });
    expect(results!.overall).toMatchObject({
      episodes: 2,
      episodes_scored: 2,
      provider_errors: 0,
      truncated: 2,
    });
    expect(results!.overall.truncated_by).toEqual({ budget: 0, max_turns: 2 });
    expect(results!.overall.pass_rate).toBe(0);
  });

  it.each([
    ["noop", "missing_mutation"],
    ["read-only", "early_stop_after_read"],
    ["hallucinate", "hallucinated_tool"],
    ["drop-field", "dropped_required_field"],
  ] as const)("policy:%s is counted as %s in every episode", async (policy, code) => {
    const { results } = await run(`policy:${policy}`);
    expect(results!.overall.failures[code]).toBe(8);
    expect(results!.overall.mean_reward).toBeLessThan(1);
    expect(results!.overall.pass_rate).toBe(0);
    expect(results!.overall.pass_hat_k).toBe(0);
  });

  it("policy:random is the floor: below policy:borrowed-args, which copies the reference's arguments", async () => {
    const random = await run("policy:random");
    const borrowed = await run("policy:borrowed-args");
    expect(random.results!.overall.pass_rate).toBe(0);
    expect(random.results!.overall.mean_reward!).toBeLessThan(borrowed.results!.overall.mean_reward!);
  });

  it("runs only the tasks of the levels asked for (--n counts those), recorded in run.json; a level a family lacks is refused", async () => {
    const dir = tempDir();
    const config = {
      ...base,
      model: "policy:reference",
      split: "train" as const,
      n: 3,
      k: 1,
      levels: [1 as const],
    };
    await evaluate({ dir, config: { ...config, scenarios: ["jira-comment-v1"] } });
    const episodes = readEpisodeLog(runFiles(dir).episodes).episodes;
    expect(episodes.map((e) => [e.index, e.level])).toEqual([
      [0, 1],
      [3, 1],
      [6, 1],
    ]);
    expect(JSON.parse(readFileSync(runFiles(dir).config, "utf8")).levels).toEqual([1]);
    const other = tempDir();
    await expect(
      evaluate({ dir: other, config: { ...config, scenarios: ["jira-comment-v1"], levels: [4] } }),
    ).rejects.toThrow(/jira-comment-v1 has no level 4 tasks \(its levels: 1, 2, 3\)/);
    expect(existsSync(runFiles(other).config)).toBe(false);
  });

  it("scores in the requested reward mode", async () => {
    const { results } = await run("policy:skip-validate", {
      config: { ...base, model: "policy:skip-validate", reward: "state" },
    });
    expect(results!.reward_mode).toBe("state");
    // The state verdict passes although the paper reward misses R2's validation points.
    expect(results!.overall.mean_reward).toBe(1);
  });
});

describe("evaluate against a fake OpenAI-compatible server", () => {
  let server: FakeServer;
  const entries = SCENARIOS.flatMap((id) => {
    const scenario = findScenario(id);
    return tasksFor(scenario, "eval", 2).map((task) => ({ scenario, task }));
  });
  beforeAll(async () => {
    server = await startFakeOpenAIServer(scriptedBehaviour("reference", entries));
  });
  afterAll(() => server.close());

  it("a competent model scores 1 and the requests carry the scenario's tools", async () => {
    server.setBehaviour(scriptedBehaviour("reference", entries));
    const { results } = await run(`openai:${server.baseURL}#fake-model`);
    expect(results!.overall).toMatchObject({ episodes: 8, mean_reward: 1, pass_rate: 1 });
    expect(server.requests.at(-1)!.body.tools.length).toBeGreaterThan(0);
  });

  it("a model that drops a required field is counted, and 500s are provider errors on the trace", async () => {
    server.setBehaviour(scriptedBehaviour("drop-field", entries));
    const dropped = await run(`openai:${server.baseURL}#fake-model`);
    expect(dropped.results!.overall.failures.dropped_required_field).toBe(8);

    server.setBehaviour(() => ({ status: 500 }));
    const failing = await run(`openai:${server.baseURL}#fake-model`, {
      config: { ...base, model: `openai:${server.baseURL}#fake-model`, provider: { retries: 0 } },
    });
    expect(failing.summary.ran).toBe(8);
    expect(failing.results!.overall).toMatchObject({
      episodes: 8,
      episodes_scored: 0,
      provider_errors: 8,
      mean_reward: null,
      pass_rate: null,
    });
    const traces = readEpisodeLog(runFiles(failing.dir).episodes).episodes;
    expect(traces.every((t) => t.error?.status === 500 && t.truncation === "provider_error")).toBe(true);
    expect(failing.results!.overall.failures).toMatchObject({ provider_error: 8, missing_mutation: 0 });
    expect(readFileSync(runFiles(failing.dir).reportMd, "utf8")).toMatch(/provider errors: \w+ ×8/);
  });
});

describe("abort and resume", () => {
  /** policy:reference that aborts the run when its `after`-th request starts. */
  function abortingPolicy(after: number, controller: AbortController): TaskPolicy & { requests: number } {
    const inner = createScriptedPolicy("reference");
    const policy = {
      name: inner.name,
      readsTask: true as const,
      requests: 0,
      next: (...args: Parameters<TaskPolicy["next"]>) => {
        if (++policy.requests === after) controller.abort();
        return inner.next(...args);
      },
    };
    return policy;
  }

  it("an aborted run keeps its finished episodes; resuming finishes without repeats or losses", async () => {
    const dir = tempDir();
    const controller = new AbortController();
    const first = await run("policy:reference", {
      dir,
      policy: abortingPolicy(22, controller),
      signal: controller.signal,
    });
    expect(first.summary.aborted).toBe(true);
    expect(first.results).toBeUndefined();
    const kept = readFileSync(runFiles(dir).episodes, "utf8");
    const keptCount = kept.split("\n").filter(Boolean).length;
    expect(keptCount).toBeGreaterThan(0);
    expect(keptCount).toBeLessThan(8);
    // A kill in the middle of a write leaves a partial line behind.
    appendFileSync(runFiles(dir).episodes, '{"task_id":"jira-transition-v1/eval/1","sample":1,"mess');

    const counter = abortingPolicy(Number.POSITIVE_INFINITY, new AbortController());
    const second = await run("policy:reference", { dir, resume: true, policy: counter });
    expect(second.summary).toMatchObject({ ran: 8 - keptCount, skipped: keptCount, aborted: false });
    const text = readFileSync(runFiles(dir).episodes, "utf8");
    expect(text.startsWith(kept)).toBe(true);
    const log = readEpisodeLog(runFiles(dir).episodes);
    expect(log.truncatedTail).toBe(false);
    expect(text.trim().split("\n")).toHaveLength(8);
    expect(log.keys.size).toBe(8);
    expect(second.results!.overall).toMatchObject({ episodes: 8, mean_reward: 1 });
  });

  it("refuses to resume with other settings, or to overwrite a run without --resume, changing nothing", async () => {
    const { dir } = await run("policy:reference");
    const before = readFileSync(runFiles(dir).episodes, "utf8");
    await expect(run("policy:reference", { dir })).rejects.toThrow(/pass --resume/);
    await expect(
      run("policy:reference", {
        dir,
        resume: true,
        config: { ...base, model: "policy:reference", reward: "gated" },
      }),
    ).rejects.toThrow(UsageError);
    await expect(
      run("policy:reference", { dir, resume: true, config: { ...base, model: "policy:noop" } }),
    ).rejects.toThrow(/model: "policy:reference" → "policy:noop"/);
    expect(readFileSync(runFiles(dir).episodes, "utf8")).toBe(before);
  });
});

describe("evaluate with an alias tool set (--tools)", () => {
  it("offers the set's tool names to the model and records the set in run.json", async () => {
    const offered = new Set<string>();
    const policy: Policy = {
      name: "lists-tools",
      async next(_messages, tools) {
        for (const tool of tools) offered.add(tool.function.name);
        return { message: { role: "assistant", content: "Nothing to do." }, latencyMs: 0 };
      },
    };
    const dir = tempDir();
    const summary = await evaluate({
      dir,
      config: { ...base, model: "openai:http://unused#m", tools: "mcp-atlassian", k: 1 },
      policy,
    });
    expect(summary.ran).toBe(4);
    expect(offered.has("jira_get_transitions")).toBe(true);
    expect(offered.has("jira_create_issue")).toBe(true);
    expect([...offered].some((name) => name === "jira_find_users" || name === "jira_search_issues")).toBe(
      false,
    );
    expect(JSON.parse(readFileSync(runFiles(dir).config, "utf8")).tools).toBe("mcp-atlassian");
  });

  it("refuses a set that cannot run a scenario, and scripted policies with an alias set, writing nothing", async () => {
    const dir = tempDir();
    await expect(
      evaluate({
        dir,
        config: {
          ...base,
          scenarios: ["confluence-page-label-v1"],
          model: "openai:http://unused#m",
          tools: "rovo",
        },
      }),
    ).rejects.toThrow(/rovo/);
    await expect(
      evaluate({ dir, config: { ...base, model: "policy:reference", tools: "rovo" } }),
    ).rejects.toThrow(UsageError);
    expect(existsSync(runFiles(dir).episodes)).toBe(false);
  });
});
