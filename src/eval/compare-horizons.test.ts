import { describe, expect, it } from "vitest";
import { writeRun } from "../../test/support/run-fixtures.ts";
import { makeWorkflowRecord, WORKFLOW_IDS, workflowRun } from "../../test/support/workflow-fixtures.ts";
import { compareRuns, loadRun } from "./compare.ts";
import { compareMarkdown, compareText } from "./compare-report.ts";
import type { EpisodeRecord } from "./episode-record.ts";

const { W, A } = WORKFLOW_IDS;

const runDir = async (records: EpisodeRecord[]) => (await writeRun(records)).dir;

/** Run A's tasks with every workflow step held (and the provider error rerun): the same tasks, all passed. */
const improved = (): EpisodeRecord[] =>
  workflowRun().map((r) =>
    Array.isArray(r.steps)
      ? makeWorkflowRecord({
          scenario: r.scenario,
          index: r.index,
          sample: r.sample,
          reward: 1,
          steps: r.steps,
        })
      : r,
  );

describe("compare per horizon", () => {
  it("compares pass rate, progress rate and mean reward per horizon with paired intervals", async () => {
    const a = await runDir(workflowRun());
    const b = await runDir(improved());
    const c = compareRuns(loadRun(a), loadRun(b), { resamples: 500, seed: 1 });
    expect(Object.keys(c.horizons!)).toEqual(["1", "2", "3"]);
    const h2 = c.horizons!["2"]!;
    expect(h2).toMatchObject({ tasks: 2, episodes_a: 3, episodes_b: 3 });
    // A: task 0 held 1 and 1/2 of its steps, task 1 none: (1 + 0.5 + 0) / 3; B: every step.
    expect(h2.progress_rate).toMatchObject({ a: 0.5, b: 1, delta: 0.5 });
    expect(h2.pass_rate).toMatchObject({ a: 0.333333, b: 1, delta: 0.666667 });
    expect(h2.mean_reward).toMatchObject({ a: 0.533333, b: 1, delta: 0.466667 });
    // Paired resampling of two tasks whose progress gains are 0.25 and 1: each is drawn twice a quarter
    // of the time, so the interval runs from one gain to the other.
    expect(h2.progress_rate!.delta_ci).toEqual([0.25, 1]);
    // Both horizon-3 tasks gain a third of their steps: the delta has no spread. A's provider error
    // is left out (1 episode in A, 2 in B for task 3).
    expect(c.horizons!["3"]).toMatchObject({
      tasks: 2,
      episodes_a: 2,
      episodes_b: 3,
      progress_rate: { a: 0.666667, b: 1, delta: 0.333333, delta_ci: [0.333333, 0.333333] },
    });
    // Single-family tasks: the same as before, and no progress figure.
    expect(c.horizons!["1"]).toMatchObject({ tasks: 1, mean_reward: { a: 0.5, b: 0.5, delta: 0 } });
    expect(c.horizons!["1"]!.progress_rate).toBeUndefined();
    expect(c.scenarios[A]!.progress_rate).toBeUndefined();
    expect(c.scenarios[W]!.progress_rate).toMatchObject({ a: 0.566667, b: 1 });
    expect(c.overall.progress_rate).toEqual(c.scenarios[W]!.progress_rate);

    const text = compareText(c);
    expect(text).toContain("per horizon (steps per task):");
    expect(text).toMatch(
      /horizon\s+tasks\s+A pass\s+B pass\s+Δ pass \[95% CI\]\s+A progress\s+B progress\s+Δ progress \[95% CI\]\s+A mean/,
    );
    expect(text).toMatch(
      /3 steps\s+2\s+0\.000\s+1\.000\s+\+1\.000 \[1\.00, 1\.00\] \*\s+0\.667\s+1\.000\s+\+0\.333 \[0\.33, 0\.33\] \*\s+0\.600\s+1\.000\s+\+0\.400/,
    );
    expect(text).toMatch(/1 \(single family\)\s+1\s+0\.500\s+0\.500\s+\+0\.000 \[0\.00, 0\.00\]\s+—\s+—\s+—/);
    expect(compareMarkdown(c)).toContain(
      "| 2 steps | 2 | 0.333 | 1.000 | +0.667 [0.50, 1.00] * | 0.500 | 1.000 | +0.500 [0.25, 1.00] * |",
    );
    expect(compareRuns(loadRun(a), loadRun(b), { resamples: 500, seed: 1 })).toEqual(c);
  });

  it("adds nothing to a comparison of single-family runs", async () => {
    const single = workflowRun().filter((r) => r.steps === undefined);
    const c = compareRuns(loadRun(await runDir(single)), loadRun(await runDir(single)), { resamples: 100 });
    expect(c.horizons).toBeUndefined();
    expect(c.overall.progress_rate).toBeUndefined();
    expect(compareText(c)).not.toMatch(/horizon|progress/);
    expect(compareMarkdown(c)).not.toMatch(/horizon|progress/);
  });
});
