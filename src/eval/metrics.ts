/**
 * Eval metrics: each episode reduced to its outcome (reward, pass, tool calls, violation codes), and
 * outcomes aggregated into results.json: per scenario and overall, the reward's mean, min, max and
 * (population) standard deviation, the pass rate, pass^k, the mean number of tool calls and the number
 * of episodes showing each failure of the taxonomy.
 */
import type { EpisodeTrace } from "../agent/types.ts";
import type { RewardMode, ViolationCode } from "../reward/score.ts";
import { passHatK } from "./pass-hat-k.ts";

/** The paper's silent failures, in the order results.json lists them. */
export const PAPER_FAILURES = [
  "dropped_required_field",
  "hallucinated_tool",
  "early_stop_after_read",
  "invalid_payload",
  "duplicate_mutation",
  "budget_exceeded",
  "collateral_change",
] as const;

/**
 * Every failure counted: the paper's, then the other violation codes that explain a failure on their
 * own (a do-nothing agent shows only `missing_mutation`; the reward engine's `wrong_value`,
 * `reverted_mutation`, `wasted_mutation` and `no_final_answer` for refusals). The state verdict itself
 * shows in the pass rate.
 */
export const FAILURE_CODES = [
  ...PAPER_FAILURES,
  "missing_mutation",
  "disallowed_tool",
  "wrong_value",
  "reverted_mutation",
  "wasted_mutation",
  "no_final_answer",
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/** What the metrics need to know about one episode. */
export interface EpisodeOutcome {
  taskId: string;
  scenario: string;
  sample: number;
  reward: number;
  /** The end-state verdict passed (the same in every reward mode). */
  passed: boolean;
  toolCalls: number;
  violations: ViolationCode[];
  /** The provider failure's type, when the episode ended on one. */
  error: string | null;
}

export const outcomeOf = (trace: EpisodeTrace): EpisodeOutcome => ({
  taskId: trace.taskId,
  scenario: trace.scenario,
  sample: trace.sample,
  reward: trace.score.reward,
  passed: trace.score.passed,
  toolCalls: trace.calls.length,
  violations: [...new Set(trace.score.violations.map((v) => v.code))],
  error: trace.error?.type ?? null,
});

export interface ScenarioResults {
  episodes: number;
  mean_reward: number | null;
  min_reward: number | null;
  max_reward: number | null;
  std_reward: number | null;
  pass_rate: number | null;
  /** Null when no task has k samples. */
  pass_hat_k: number | null;
  mean_tool_calls: number | null;
  /** Episodes showing each failure (an episode counts once per code). */
  failures: Record<FailureCode, number>;
}

export interface EvalResults {
  model: string;
  reward_mode: RewardMode;
  scenarios: Record<string, ScenarioResults>;
  overall: ScenarioResults;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;
const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Aggregates the outcomes of one scenario (or of all of them); `k` is the samples per task. */
export function summarize(outcomes: readonly EpisodeOutcome[], k: number): ScenarioResults {
  const failures = Object.fromEntries(FAILURE_CODES.map((code) => [code, 0])) as Record<FailureCode, number>;
  for (const o of outcomes)
    for (const code of o.violations) if (code in failures) failures[code as FailureCode]++;
  if (outcomes.length === 0) {
    return {
      episodes: 0,
      mean_reward: null,
      min_reward: null,
      max_reward: null,
      std_reward: null,
      pass_rate: null,
      pass_hat_k: null,
      mean_tool_calls: null,
      failures,
    };
  }
  const rewards = outcomes.map((o) => o.reward);
  const m = mean(rewards);
  const perTask = new Map<string, { n: number; c: number }>();
  for (const o of outcomes) {
    const t = perTask.get(o.taskId) ?? { n: 0, c: 0 };
    t.n++;
    if (o.passed) t.c++;
    perTask.set(o.taskId, t);
  }
  const phk = passHatK(perTask.values(), k);
  return {
    episodes: outcomes.length,
    mean_reward: round(m),
    min_reward: round(rewards.reduce((a, b) => Math.min(a, b))),
    max_reward: round(rewards.reduce((a, b) => Math.max(a, b))),
    std_reward: round(Math.sqrt(mean(rewards.map((r) => (r - m) ** 2)))),
    pass_rate: round(outcomes.filter((o) => o.passed).length / outcomes.length),
    pass_hat_k: phk === null ? null : round(phk),
    mean_tool_calls: round(mean(outcomes.map((o) => o.toolCalls))),
    failures,
  };
}

export interface ResultsInput {
  model: string;
  rewardMode: RewardMode;
  outcomes: readonly EpisodeOutcome[];
  /** Samples per task (the k of pass^k). */
  k: number;
  /** Scenario ids in report order (default: order of first appearance). */
  scenarios?: readonly string[];
}

/** results.json: per-scenario and overall metrics. */
export function buildResults({ model, rewardMode, outcomes, k, scenarios }: ResultsInput): EvalResults {
  const ids = scenarios ?? [...new Set(outcomes.map((o) => o.scenario))];
  return {
    model,
    reward_mode: rewardMode,
    scenarios: Object.fromEntries(
      ids.map((id) => [
        id,
        summarize(
          outcomes.filter((o) => o.scenario === id),
          k,
        ),
      ]),
    ),
    overall: summarize(
      outcomes.filter((o) => ids.includes(o.scenario)),
      k,
    ),
  };
}
