import { describe, expect, it } from "vitest";
import { makeWorkflowRecord, WORKFLOW_IDS, workflowRun } from "../../test/support/workflow-fixtures.ts";
import { horizonResults, summarizeHorizon } from "./horizon-metrics.ts";
import { outcomeOf, summarize } from "./metrics.ts";
import { workflowOf } from "./workflow-outcome.ts";

const { W, A, ASSIGN, PAGE, CREATE } = WORKFLOW_IDS;
const WORKFLOW_RUN = workflowRun();

describe("horizon metrics", () => {
  const outcomes = WORKFLOW_RUN.map(outcomeOf);
  const { horizons } = horizonResults(outcomes, 2);

  it("reads the horizon and the first failed step from a stored workflow record", () => {
    expect(outcomes[4]!.workflow).toEqual({
      horizon: 3,
      progress: {
        rate: 2 / 3,
        firstFailed: { step: 2, scenario: PAGE, failure: "collateral_change" },
      },
    });
    expect(outcomes[0]!.workflow).toEqual({ horizon: 2, progress: { rate: 1, firstFailed: null } });
    expect(outcomes[6]!.workflow).toBeUndefined();
  });

  it("groups episodes by horizon, the single-family ones as horizon 1", () => {
    expect(Object.keys(horizons!)).toEqual(["1", "2", "3"]);
    expect(horizons!["1"]).toMatchObject({
      scenarios: [A],
      episodes: 2,
      mean_reward: 0.5,
      pass_rate: 0.5,
      episodes_with_progress: 0,
      progress_rate: null,
      progress_rate_ci: null,
      first_failed_step: [],
    });
    // Horizon 1 carries every figure a scenario row carries, computed the same way.
    const single = outcomes.filter((o) => !o.workflow);
    expect(horizons!["1"]).toMatchObject(summarize(single, 2, "horizon-1"));
  });

  it("gives each horizon its success, mean reward and progress rate", () => {
    const h2 = horizons!["2"]!;
    expect(h2).toMatchObject({ scenarios: [W], episodes: 3, episodes_scored: 3, episodes_with_progress: 3 });
    expect(h2.mean_reward).toBeCloseTo((1 + 0.6 + 0) / 3, 6);
    expect(h2.pass_rate).toBeCloseTo(1 / 3, 6);
    expect(h2.progress_rate).toBe(0.5); // (1 + 0.5 + 0) / 3
    expect(h2.all_steps_held).toBe(1);
    const h3 = horizons!["3"]!;
    expect(h3).toMatchObject({ episodes: 3, episodes_scored: 2, provider_errors: 1, all_steps_held: 0 });
    expect(h3.progress_rate).toBeCloseTo(2 / 3, 6);
    expect(h3.mean_reward).toBeCloseTo(0.6, 6);
    expect(h3.pass_rate).toBe(0);
  });

  it("counts the first failed step per step, with its failure kind and family", () => {
    expect(horizons!["2"]!.first_failed_step).toEqual([
      { step: 1, episodes: 1, kinds: { missing_mutation: 1 }, families: { [ASSIGN]: 1 } },
      { step: 2, episodes: 1, kinds: { wrong_value: 1 }, families: { [ASSIGN]: 1 } },
    ]);
    // The provider error's failures are not counted; a step no episode failed first at shows 0.
    expect(horizons!["3"]!.first_failed_step).toEqual([
      { step: 1, episodes: 0, kinds: {}, families: {} },
      { step: 2, episodes: 1, kinds: { collateral_change: 1 }, families: { [PAGE]: 1 } },
      { step: 3, episodes: 1, kinds: { unhonoured_binding: 1 }, families: { [PAGE]: 1 } },
    ]);
  });

  it("gives the progress rate a seeded bootstrap interval over tasks that contains it", () => {
    const h2 = horizons!["2"]!;
    const [low, high] = h2.progress_rate_ci!;
    expect(low).toBeLessThanOrEqual(h2.progress_rate!);
    expect(high).toBeGreaterThanOrEqual(h2.progress_rate!);
    // Task 0 has rates 1 and 0.5 (mean 0.75), task 1 has 0: the resampled means lie in [0, 0.75].
    expect(low).toBeGreaterThanOrEqual(0);
    expect(high).toBeLessThanOrEqual(0.75);
    expect(high).toBeGreaterThan(low);
    // Both horizon-3 tasks hold two of three steps: no spread.
    expect(horizons!["3"]!.progress_rate_ci).toEqual([0.666667, 0.666667]);
    expect(horizonResults(outcomes, 2)).toEqual({ horizons });
  });

  it("counts each horizon's truncated episodes (scored, not provider errors)", () => {
    const cut = makeWorkflowRecord({
      scenario: W,
      index: 7,
      reward: 0.4,
      steps: [CREATE, ASSIGN, PAGE],
      verdicts: [true, true, "missing_mutation"],
      truncation: "max_turns",
    });
    const more = [...WORKFLOW_RUN, cut].map(outcomeOf);
    const h = horizonResults(more, 2).horizons!;
    expect(h["3"]).toMatchObject({
      truncated: 1,
      truncated_by: { budget: 0, max_turns: 1 },
      provider_errors: 1,
    });
    expect(h["2"]!.truncated).toBe(0);
    expect(h["3"]!.episodes_with_progress).toBe(horizons!["3"]!.episodes_with_progress + 1);
  });

  it("adds nothing to a single-family run", () => {
    const single = outcomes.filter((o) => !o.workflow);
    expect(horizonResults(single, 2)).toEqual({});
  });

  it("reads a workflow record without (or with malformed) progress as a horizon without progress figures", () => {
    const bare = makeWorkflowRecord({ scenario: W, steps: [CREATE, ASSIGN], noProgress: true });
    expect(workflowOf(bare)).toEqual({ workflow: { horizon: 2, progress: null } });
    const bad = { ...bare, score: { ...bare.score, progress: { rate: "high", steps: [] } } };
    expect(workflowOf(bad)).toEqual({ workflow: { horizon: 2, progress: null } });
    // A record without `steps` whose score carries progress still counts under its progress's horizon.
    const unlisted = makeWorkflowRecord({
      scenario: W,
      steps: [CREATE, ASSIGN, PAGE],
      verdicts: [true, "x", true],
    });
    delete unlisted.steps;
    expect(workflowOf(unlisted)).toEqual({
      workflow: {
        horizon: 3,
        progress: { rate: 2 / 3, firstFailed: { step: 2, scenario: ASSIGN, failure: "x" } },
      },
    });
    expect(workflowOf({ ...unlisted, score: { ...unlisted.score, progress: "?" } })).toEqual({});
    const h = summarizeHorizon(2, [outcomeOf(bare)], 1);
    expect(h).toMatchObject({
      episodes: 1,
      episodes_with_progress: 0,
      progress_rate: null,
      progress_rate_ci: null,
      all_steps_held: 0,
      first_failed_step: [],
    });
  });
});
