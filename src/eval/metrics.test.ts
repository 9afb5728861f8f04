import { describe, expect, it } from "vitest";
import { makeRecord as makeTrace } from "../../test/support/trace-fixtures.ts";
import { buildResults, FAILURE_CODES, outcomeOf, PAPER_FAILURES, summarize } from "./metrics.ts";
import { rows } from "./report-md.ts";

const A = "jira-transition-v1";
const B = "jira-subtask-create-v1";

describe("eval metrics", () => {
  const traces = [
    makeTrace({ scenario: A, index: 0, sample: 0, reward: 1, calls: 3 }),
    makeTrace({ scenario: A, index: 0, sample: 1, reward: 0.5, passed: true, calls: 1 }),
    makeTrace({
      scenario: A,
      index: 1,
      sample: 0,
      reward: 0.2,
      passed: false,
      calls: 2,
      // Two rejections of the same kind in one episode count once.
      violations: ["invalid_payload", "invalid_payload", "dropped_required_field"],
    }),
    makeTrace({
      scenario: A,
      index: 1,
      sample: 1,
      reward: 0,
      passed: false,
      calls: 0,
      violations: ["missing_mutation"],
    }),
    makeTrace({ scenario: B, index: 0, sample: 0, reward: 1, calls: 4 }),
    makeTrace({ scenario: B, index: 0, sample: 1, reward: 1, calls: 4 }),
  ];
  const outcomes = traces.map(outcomeOf);

  it("aggregates reward statistics, pass rate, pass^k and tool calls per scenario", () => {
    const a = summarize(
      outcomes.filter((o) => o.scenario === A),
      2,
    );
    expect(a.episodes).toBe(4);
    expect(a.mean_reward).toBeCloseTo(0.425, 6);
    expect(a.min_reward).toBe(0);
    expect(a.max_reward).toBe(1);
    // Population standard deviation of [1, 0.5, 0.2, 0].
    const m = 0.425;
    expect(a.std_reward).toBeCloseTo(
      Math.sqrt(((1 - m) ** 2 + (0.5 - m) ** 2 + (0.2 - m) ** 2 + m ** 2) / 4),
      6,
    );
    expect(a.pass_rate).toBe(0.5);
    // Task 0 passed both samples, task 1 neither: pass^2 = (1 + 0) / 2.
    expect(a.pass_hat_k).toBe(0.5);
    expect(a.mean_tool_calls).toBe(1.5);
    expect(a.failures.invalid_payload).toBe(1);
    expect(a.failures.dropped_required_field).toBe(1);
    expect(a.failures.missing_mutation).toBe(1);
    expect(a.failures.hallucinated_tool).toBe(0);
  });

  it("builds results.json in the issue's shape, with an overall summary", () => {
    const results = buildResults({
      model: "policy:x",
      rewardMode: "paper",
      outcomes,
      k: 2,
      scenarios: [A, B],
    });
    expect(Object.keys(results)).toEqual(["model", "reward_mode", "scenarios", "overall"]);
    expect(Object.keys(results.scenarios)).toEqual([A, B]);
    expect(Object.keys(results.overall)).toEqual([
      "episodes",
      "episodes_scored",
      "provider_errors",
      "mean_reward",
      "mean_reward_ci",
      "min_reward",
      "max_reward",
      "std_reward",
      "pass_rate",
      "pass_rate_ci",
      "pass_hat_k",
      "mean_tool_calls",
      "failures",
      "truncated",
      "truncated_by",
    ]);
    expect(Object.keys(results.overall.failures)).toEqual([...FAILURE_CODES]);
    expect(FAILURE_CODES.slice(0, 7)).toEqual([...PAPER_FAILURES]);
    expect(results.scenarios[B]!.pass_hat_k).toBe(1);
    expect(results.overall.episodes).toBe(6);
    expect(results.overall.mean_reward).toBeCloseTo(3.7 / 6, 6);
    expect(results.overall.pass_rate).toBeCloseTo(4 / 6, 6);
    expect(results.overall.pass_hat_k).toBeCloseTo(2 / 3, 6);
    expect(JSON.parse(JSON.stringify(results))).toEqual(results);
  });

  it("reports in-family and held-out families apart when the run has held-out ones", () => {
    const results = buildResults({
      model: "m",
      rewardMode: "paper",
      outcomes,
      k: 2,
      scenarios: [A, B],
      heldOut: [B],
    });
    const a = results.scenarios[A]!;
    const b = results.scenarios[B]!;
    expect(results.groups!.in_family).toEqual(a);
    expect(results.groups!.held_out).toEqual(b);
    expect(a.mean_reward).not.toBe(b.mean_reward);
    expect(rows(results).map((r) => r[0])).toEqual([A, B, "overall", "in-family", "held-out"]);
    const none = buildResults({
      model: "m",
      rewardMode: "paper",
      outcomes,
      k: 2,
      scenarios: [A, B],
      heldOut: ["x-v1"],
    });
    expect(none.groups).toBeUndefined();
    expect(rows(none).map((r) => r[0])).toEqual([A, B, "overall"]);
  });

  it("counts truncated episodes apart, scores them and never takes them for provider errors", () => {
    const ends = [
      makeTrace({ scenario: A, index: 2, reward: 0.4, passed: false, truncation: "max_turns" }),
      makeTrace({ scenario: A, index: 3, reward: 0, passed: false, truncation: "budget" }),
      makeTrace({ scenario: A, index: 4, reward: 0.1, passed: false, truncation: "max_turns" }),
      makeTrace({
        scenario: A,
        index: 5,
        reward: 0,
        passed: false,
        error: { type: "timeout", message: "t" },
      }),
    ].map(outcomeOf);
    expect(ends.map((o) => [o.truncation, o.error])).toEqual([
      ["max_turns", null],
      ["budget", null],
      ["max_turns", null],
      [undefined, "timeout"],
    ]);
    const s = summarize([...outcomes.filter((o) => o.scenario === A), ...ends], 1);
    expect(s).toMatchObject({ episodes_scored: 7, provider_errors: 1, truncated: 3 });
    expect(s.truncated_by).toEqual({ budget: 1, max_turns: 2 });
    // Scored on their end state: their rewards are in the mean with the other episodes'.
    expect(s.mean_reward).toBeCloseTo((1 + 0.5 + 0.2 + 0 + 0.4 + 0 + 0.1) / 7, 6);
    expect(summarize(outcomes, 1)).toMatchObject({ truncated: 0, truncated_by: { budget: 0, max_turns: 0 } });
  });

  it("reports an empty scenario with nulls rather than NaN", () => {
    const s = summarize([], 1);
    expect(s.episodes).toBe(0);
    expect(s.mean_reward).toBeNull();
    expect(s.pass_hat_k).toBeNull();
    expect(Object.values(s.failures).every((n) => n === 0)).toBe(true);
  });

  it("leaves provider errors out of every model figure and counts them apart", () => {
    const errored = makeTrace({
      scenario: A,
      index: 0,
      sample: 2,
      reward: 0,
      passed: false,
      calls: 0,
      violations: ["missing_mutation"],
      error: { type: "connection", message: "Connection error (ECONNREFUSED)." },
    });
    const a = outcomes.filter((o) => o.scenario === A);
    const withError = summarize([...a, outcomeOf(errored)], 2);
    const without = summarize(a, 2);
    expect(withError).toMatchObject({ episodes: 5, episodes_scored: 4, provider_errors: 1 });
    for (const key of [
      "mean_reward",
      "mean_reward_ci",
      "pass_rate",
      "pass_hat_k",
      "mean_tool_calls",
    ] as const)
      expect(withError[key]).toEqual(without[key]);
    expect(withError.failures.missing_mutation).toBe(without.failures.missing_mutation);
    expect(withError.failures.provider_error).toBe(1);
    const onlyErrors = summarize([outcomeOf(errored)], 1);
    expect(onlyErrors).toMatchObject({ episodes: 1, episodes_scored: 0, mean_reward: null, pass_rate: null });
  });

  it("gives the mean reward and pass rate bootstrap intervals over tasks that contain them", () => {
    const a = summarize(
      outcomes.filter((o) => o.scenario === A),
      2,
      A,
    );
    expect(a.mean_reward_ci![0]).toBeLessThanOrEqual(a.mean_reward!);
    expect(a.mean_reward_ci![1]).toBeGreaterThanOrEqual(a.mean_reward!);
    expect(a.mean_reward_ci![1]).toBeGreaterThan(a.mean_reward_ci![0]);
    // Task 0 always passes, task 1 never: resampled pass rates span 0 to 1.
    expect(a.pass_rate_ci).toEqual([0, 1]);
    const b = summarize(
      outcomes.filter((o) => o.scenario === B),
      2,
      B,
    );
    expect(b.mean_reward_ci).toEqual([1, 1]);
  });
});
