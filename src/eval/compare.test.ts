import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../errors.ts";
import { compareRuns, loadRun } from "./compare.ts";
import { compareMarkdown, compareText } from "./compare-report.ts";
import { evaluate } from "./evaluate.ts";
import { runFiles } from "./run-dir.ts";

const SCENARIOS = ["jira-transition-v1", "jira-subtask-create-v1"];

async function runOf(
  model: string,
  options: { scenarios?: string[]; reward?: "paper" | "state"; n?: number } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), "atlas-compare-"));
  await evaluate({
    dir,
    config: {
      model,
      scenarios: options.scenarios ?? SCENARIOS,
      split: "eval",
      n: options.n ?? 3,
      k: 2,
      concurrency: 4,
      seed: 0,
      reward: options.reward ?? "paper",
      maxTurns: 30,
    },
  });
  return dir;
}

describe("compare", () => {
  it("tabulates A, B and the delta of mean reward, pass rate and pass^k with paired bootstrap intervals", async () => {
    const a = await runOf("policy:noop");
    const b = await runOf("policy:reference");
    const c = compareRuns(loadRun(a), loadRun(b), { resamples: 500, seed: 3 });
    expect(c.a.model).toBe("policy:noop");
    expect(c.k).toBe(2);
    expect(c.method).toEqual({
      unit: "task",
      stratified_by: "scenario",
      interval: "percentile",
      paired: true,
      resamples: 500,
      seed: 3,
      level: 0.95,
    });
    const gain = { a: 0, a_ci: [0, 0], b: 1, b_ci: [1, 1], delta: 1, delta_ci: [1, 1] };
    for (const id of SCENARIOS) {
      expect(c.scenarios[id]).toEqual({
        tasks: 3,
        episodes_a: 6,
        episodes_b: 6,
        mean_reward: gain,
        pass_rate: gain,
        pass_hat_k: gain,
      });
    }
    expect(c.overall).toMatchObject({ tasks: 6, pass_rate: { delta: 1 }, pass_hat_k: { delta: 1 } });
    expect(compareRuns(loadRun(a), loadRun(b), { resamples: 500, seed: 3 })).toEqual(c);

    const text = compareText(c);
    expect(text).toMatch(
      /jira-transition-v1\s+3\s+0\.000\s+1\.000\s+\+1\.000 \[1\.00, 1\.00\] \*\s+0\.000\s+1\.000\s+\+1\.000 \[1\.00, 1\.00\] \*\s+0\.000\s+1\.000\s+\+1\.000/,
    );
    expect(compareMarkdown(c)).toContain(
      "| scenario | tasks | A mean | B mean | Δ mean [95% CI] | A pass | B pass | Δ pass [95% CI] | A pass^2 | B pass^2 | Δ pass^2 [95% CI] |",
    );
    expect(c.groups).toBeUndefined();
    const held = compareRuns(loadRun(a), loadRun(b), { resamples: 500, seed: 3 }, [SCENARIOS[1]!]);
    expect(held.groups!.in_family).toEqual({ ...c.scenarios[SCENARIOS[0]!]! });
    expect(held.groups!.held_out).toMatchObject({ tasks: 3, mean_reward: { a: 0, b: 1, delta: 1 } });
    expect(compareText(held)).toMatch(/in-family\s+3\s+0\.000.*\n.*held-out\s+3\s+0\.000/);
  });

  it("gives a mixed run non-degenerate intervals that contain their values", async () => {
    const a = await runOf("policy:reference");
    const b = await runOf("policy:borrowed-args");
    const o = compareRuns(loadRun(a), loadRun(b), { resamples: 1000, seed: 1 }).overall;
    for (const s of [o.mean_reward, o.pass_rate]) {
      expect(s.b_ci![0]).toBeLessThanOrEqual(s.b!);
      expect(s.b_ci![1]).toBeGreaterThanOrEqual(s.b!);
      expect(s.delta).toBeCloseTo(s.b! - s.a!, 6);
      expect(s.delta_ci![1]).toBeGreaterThan(s.delta_ci![0]);
    }
  });

  it("refuses runs over different tasks unless --common-tasks restricts both to the shared ones", async () => {
    const a = await runOf("policy:reference");
    const b = await runOf("policy:noop", { scenarios: [SCENARIOS[0]!], n: 2 });
    expect(() => compareRuns(loadRun(a), loadRun(b))).toThrow(
      /cover different tasks \(jira-transition-v1: 3 tasks in A, 2 in B, 2 shared; jira-subtask-create-v1: 3 tasks in A, 0 in B, 0 shared\); pass --common-tasks/,
    );
    const c = compareRuns(loadRun(a), loadRun(b), { resamples: 200, commonTasks: true });
    expect(Object.keys(c.scenarios)).toEqual([SCENARIOS[0]]);
    expect(c.overall).toMatchObject({ tasks: 2, episodes_a: 4, episodes_b: 4, mean_reward: { delta: -1 } });
    expect(c.common_tasks).toBe(true);
  });

  it("refuses runs over different frozen splits of a scenario", async () => {
    const a = await runOf("policy:reference");
    const b = await runOf("policy:reference");
    const results = JSON.parse(readFileSync(runFiles(b).results, "utf8"));
    results.provenance.scenarios[SCENARIOS[1]!].eval_split_sha256 = "0".repeat(64);
    writeFileSync(runFiles(b).results, JSON.stringify(results));
    expect(() => compareRuns(loadRun(a), loadRun(b))).toThrow(
      /jira-subtask-create-v1: different frozen splits \([0-9a-f]{12} vs 000000000000\)/,
    );
    const c = compareRuns(loadRun(a), loadRun(b), { resamples: 200, commonTasks: true });
    expect(Object.keys(c.scenarios)).toEqual([SCENARIOS[0]]);
  });

  it("refuses runs scored in different modes, directories that are not finished runs, and missing ones", async () => {
    const a = await runOf("policy:reference");
    const b = await runOf("policy:reference", { reward: "state" });
    expect(() => compareRuns(loadRun(a), loadRun(b))).toThrow(/different reward modes/);
    rmSync(runFiles(b).results);
    expect(() => loadRun(b)).toThrow(UsageError);
    expect(() => loadRun(b)).toThrow(/eval --resume --out/);
    expect(() => loadRun(join(a, "nope"))).toThrow(new UsageError(`${join(a, "nope")} does not exist`));
  });
});
