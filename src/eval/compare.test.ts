import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../errors.ts";
import { compareRuns, loadRun } from "./compare.ts";
import { compareMarkdown, compareText } from "./compare-report.ts";
import { evaluate } from "./evaluate.ts";
import { runFiles } from "./run-dir.ts";

const SCENARIOS = ["jira-transition-v1", "jira-subtask-create-v1"];

async function runOf(model: string, options: { scenarios?: string[]; reward?: "paper" | "state" } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "atlas-compare-"));
  await evaluate({
    dir,
    config: {
      model,
      scenarios: options.scenarios ?? SCENARIOS,
      split: "eval",
      n: 3,
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
  it("tabulates A mean, B mean and delta with paired bootstrap intervals", async () => {
    const a = await runOf("policy:noop");
    const b = await runOf("policy:reference");
    const c = compareRuns(loadRun(a), loadRun(b), { resamples: 500, seed: 3 });
    expect(c.a.model).toBe("policy:noop");
    expect(c.method).toEqual({
      unit: "task",
      stratified_by: "scenario",
      interval: "percentile",
      resamples: 500,
      seed: 3,
      level: 0.95,
    });
    for (const id of SCENARIOS) {
      expect(c.scenarios[id]).toMatchObject({
        tasks_a: 3,
        tasks_b: 3,
        episodes_a: 6,
        episodes_b: 6,
        paired: true,
        a_mean: 0,
        a_ci: [0, 0],
        b_mean: 1,
        b_ci: [1, 1],
        delta: 1,
        delta_ci: [1, 1],
      });
    }
    expect(c.overall).toMatchObject({ tasks_a: 6, delta: 1, paired: true });
    expect(compareRuns(loadRun(a), loadRun(b), { resamples: 500, seed: 3 })).toEqual(c);

    const text = compareText(c);
    expect(text).toMatch(
      /jira-transition-v1\s+3\s+0\.000 \[0\.00, 0\.00\]\s+1\.000 \[1\.00, 1\.00\]\s+\+1\.000 \[1\.00, 1\.00\] \*/,
    );
    expect(compareMarkdown(c)).toContain(
      "| scenario | tasks | A mean [95% CI] | B mean [95% CI] | Δ B−A [95% CI] |",
    );
    expect(c.groups).toBeUndefined();
    const held = compareRuns(loadRun(a), loadRun(b), { resamples: 500, seed: 3 }, [SCENARIOS[1]!]);
    expect(held.groups!.in_family).toEqual({ ...c.scenarios[SCENARIOS[0]!]! });
    expect(held.groups!.held_out).toMatchObject({ tasks_a: 3, a_mean: 0, b_mean: 1, delta: 1 });
    expect(compareText(held)).toMatch(/in-family\s+3\s+0\.000.*\n.*held-out\s+3\s+0\.000/);
  });

  it("gives a mixed run a non-degenerate interval that contains its mean", async () => {
    const a = await runOf("policy:reference");
    const b = await runOf("policy:random");
    const c = compareRuns(loadRun(a), loadRun(b), { resamples: 1000, seed: 1 });
    const o = c.overall;
    expect(o.b_ci![0]).toBeLessThanOrEqual(o.b_mean!);
    expect(o.b_ci![1]).toBeGreaterThanOrEqual(o.b_mean!);
    expect(o.delta).toBeCloseTo(o.b_mean! - o.a_mean!, 6);
    expect(o.delta_ci![1]).toBeGreaterThan(o.delta_ci![0]);
  });

  it("shows a scenario only one run has without a delta, and keeps it out of overall", async () => {
    const a = await runOf("policy:reference");
    const b = await runOf("policy:reference", { scenarios: [SCENARIOS[0]!] });
    const c = compareRuns(loadRun(a), loadRun(b), { resamples: 200 });
    expect(c.scenarios[SCENARIOS[1]!]).toMatchObject({ tasks_a: 3, tasks_b: 0, b_mean: null, delta: null });
    expect(c.overall.tasks_a).toBe(3);
  });

  it("refuses runs scored in different modes, and directories that are not finished runs", async () => {
    const a = await runOf("policy:reference");
    const b = await runOf("policy:reference", { reward: "state" });
    expect(() => compareRuns(loadRun(a), loadRun(b))).toThrow(/different reward modes/);
    rmSync(runFiles(b).results);
    expect(() => loadRun(b)).toThrow(UsageError);
    expect(() => loadRun(b)).toThrow(/eval --resume --out/);
  });
});
