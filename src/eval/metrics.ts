/**
 * Eval metrics: each episode reduced to its outcome (reward, pass, tool calls, violation codes, provider
 * failure), and outcomes aggregated into results.json: per scenario and overall, the reward's mean (with
 * a bootstrap interval over tasks), min, max and (population) standard deviation, the pass rate (with
 * its interval), pass^k, the mean number of tool calls and the number of episodes showing each failure
 * of the taxonomy. Episodes that ended in a provider error say nothing about the model: they are counted
 * (`provider_errors`, and as the `provider_error` failure) but left out of every other figure, which
 * covers the `episodes_scored`.
 */
import type { RewardMode, ViolationCode } from "../reward/score.ts";
import { bootstrapCompare, type Stratum, type TaskRewards } from "./bootstrap.ts";
import { type EpisodeRecord, endingOf, isProviderError } from "./episode-record.ts";
import type { HorizonResults } from "./horizon-metrics.ts";
import { passHatK } from "./pass-hat-k.ts";
import type { Provenance } from "./provenance.ts";
import { type WorkflowOutcome, workflowOf } from "./workflow-outcome.ts";

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
 * `reverted_mutation`, `wasted_mutation`, and `no_final_answer` and `no_decline` for refusals). The state verdict itself
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
  "no_decline",
  "provider_error",
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/** The one failure code that is no violation (the others' meanings are in reward/penalties.ts). */
export const PROVIDER_ERROR_MEANING =
  "the episode ended on a model-provider failure (its kinds are below): not scored, left out of every other figure, rerun by `--resume`";

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
  /** The provider failure's type, when the episode ended on one (the model was not scored). */
  error: string | null;
  /** That failure's text and HTTP status, and the retries the episode made (only with `error`). */
  errorCause?: { message: string; status: number | null; retries: number };
  /** Set when the episode was truncated (scored on its end state): its call budget or turn limit ran out. */
  truncation?: "budget" | "max_turns";
  /** Horizon and per-step progress of a workflow episode (absent on single-family ones). */
  workflow?: WorkflowOutcome;
}

export const outcomeOf = (record: EpisodeRecord): EpisodeOutcome => ({
  taskId: record.task_id,
  scenario: record.scenario,
  sample: record.sample,
  reward: record.score.reward,
  passed: record.score.passed,
  toolCalls: record.calls.length,
  violations: [...new Set(((record.score.violations ?? []) as { code: ViolationCode }[]).map((v) => v.code))],
  error: isProviderError(record) ? (record.error?.type ?? "unknown") : null,
  ...(isProviderError(record)
    ? {
        errorCause: {
          message: record.error?.message ?? "",
          status: record.error?.status ?? null,
          retries: record.retries ?? 0,
        },
      }
    : {}),
  ...truncationOf(record),
  ...workflowOf(record),
});

function truncationOf(record: EpisodeRecord): Pick<EpisodeOutcome, "truncation"> {
  const ending = endingOf(record);
  return ending === "budget" || ending === "max_turns" ? { truncation: ending } : {};
}

export interface ScenarioResults {
  episodes: number;
  /** Episodes the model figures cover (all but the provider errors). */
  episodes_scored: number;
  /** Episodes that ended because the model provider failed after its retries. */
  provider_errors: number;
  mean_reward: number | null;
  /** Bootstrap percentile interval of the mean reward (tasks resampled, stratified by scenario). */
  mean_reward_ci: [number, number] | null;
  min_reward: number | null;
  max_reward: number | null;
  std_reward: number | null;
  pass_rate: number | null;
  pass_rate_ci: [number, number] | null;
  /** Null when no task has k scored samples. */
  pass_hat_k: number | null;
  mean_tool_calls: number | null;
  /** Episodes showing each failure (an episode counts once per code). */
  failures: Record<FailureCode, number>;
  /**
   * Scored episodes truncated by their call budget or turn limit (their own end, not a model error:
   * scored on their end state like any other), in all and per cause.
   */
  truncated: number;
  truncated_by: { budget: number; max_turns: number };
}

export interface EvalResults {
  model: string;
  reward_mode: RewardMode;
  /** Where the numbers come from (absent in results built without a run). */
  provenance?: Provenance;
  scenarios: Record<string, ScenarioResults>;
  overall: ScenarioResults;
  /** When the run holds held-out families: the in-family and the held-out episodes, apart. */
  groups?: { in_family: ScenarioResults; held_out: ScenarioResults };
  /** When the run holds workflow episodes: the figures per horizon (horizon-metrics.ts). */
  horizons?: Record<string, HorizonResults>;
  /** When some episodes ended in a provider error: the last of them in the log, with its cause. */
  last_provider_error?: LastProviderError;
  /** When some episodes ended in a provider error: how many ended in each kind (`error.type`). */
  provider_error_types?: Record<string, number>;
}

/** The cause of the last provider error of a run: what failed, its text, and how often it was retried. */
export interface LastProviderError {
  task_id: string;
  sample: number;
  type: string;
  message: string;
  status: number | null;
  /** Retries the episode made (over all its turns) before it gave up. */
  retries: number;
}

/** The last outcome (in log order) that ended in a provider error, with its cause; undefined when none did. */
export function lastProviderError(outcomes: readonly EpisodeOutcome[]): LastProviderError | undefined {
  const last = outcomes.findLast((o) => o.error !== null);
  if (!last) return undefined;
  const cause = last.errorCause ?? { message: "", status: null, retries: 0 };
  return { task_id: last.taskId, sample: last.sample, type: last.error!, ...cause };
}

/** Episodes per provider error kind, in the order the kinds first occur. */
export function providerErrorTypes(outcomes: readonly EpisodeOutcome[]): Record<string, number> {
  const types: Record<string, number> = {};
  for (const o of outcomes) if (o.error !== null) types[o.error] = (types[o.error] ?? 0) + 1;
  return types;
}

export const round = (x: number) => Math.round(x * 1e6) / 1e6;
const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Resamples of the intervals in results.json (seeded, so the same run gives the same intervals). */
export const CI_RESAMPLES = 1000;

/**
 * Bootstrap interval of the mean of `value` over scored episodes: tasks resampled within each scenario
 * (seeded by `label`, so the same run gives the same interval).
 */
export function meanInterval(
  scored: readonly EpisodeOutcome[],
  value: (o: EpisodeOutcome) => number,
  label: string,
): [number, number] {
  const byScenario = new Map<string, Map<string, TaskRewards>>();
  for (const o of scored) {
    const tasks = byScenario.get(o.scenario) ?? new Map<string, TaskRewards>();
    const t = tasks.get(o.taskId) ?? { sum: 0, count: 0 };
    tasks.set(o.taskId, { sum: t.sum + value(o), count: t.count + 1 });
    byScenario.set(o.scenario, tasks);
  }
  const strata: Stratum[] = [...byScenario.values()].map((tasks) => {
    const a = [...tasks.values()];
    return { a, b: a, paired: true };
  });
  const { a } = bootstrapCompare(strata, label, { resamples: CI_RESAMPLES, seed: 0 });
  return [round(a.low), round(a.high)];
}

/** Bootstrap intervals of the mean reward and the pass rate over tasks, stratified by scenario. */
const intervals = (scored: readonly EpisodeOutcome[], label: string) => ({
  mean_reward_ci: meanInterval(scored, (o) => o.reward, `${label}:reward`),
  pass_rate_ci: meanInterval(scored, (o) => (o.passed ? 1 : 0), `${label}:pass`),
});

/** Aggregates the outcomes of one scenario (or of all of them); `k` is the samples per task. */
export function summarize(outcomes: readonly EpisodeOutcome[], k: number, label = "all"): ScenarioResults {
  const scored = outcomes.filter((o) => o.error === null);
  const failures = Object.fromEntries(FAILURE_CODES.map((code) => [code, 0])) as Record<FailureCode, number>;
  for (const o of scored)
    for (const code of o.violations) if (code in failures) failures[code as FailureCode]++;
  failures.provider_error = outcomes.length - scored.length;
  const by = (cause: "budget" | "max_turns") => scored.filter((o) => o.truncation === cause).length;
  const counts = {
    episodes: outcomes.length,
    episodes_scored: scored.length,
    provider_errors: outcomes.length - scored.length,
  };
  const truncation = {
    truncated: by("budget") + by("max_turns"),
    truncated_by: { budget: by("budget"), max_turns: by("max_turns") },
  };
  if (scored.length === 0) {
    return {
      ...counts,
      mean_reward: null,
      mean_reward_ci: null,
      min_reward: null,
      max_reward: null,
      std_reward: null,
      pass_rate: null,
      pass_rate_ci: null,
      pass_hat_k: null,
      mean_tool_calls: null,
      failures,
      ...truncation,
    };
  }
  const rewards = scored.map((o) => o.reward);
  const m = mean(rewards);
  const perTask = new Map<string, { n: number; c: number }>();
  for (const o of scored) {
    const t = perTask.get(o.taskId) ?? { n: 0, c: 0 };
    t.n++;
    if (o.passed) t.c++;
    perTask.set(o.taskId, t);
  }
  const phk = passHatK(perTask.values(), k);
  const ci = intervals(scored, label);
  return {
    ...counts,
    mean_reward: round(m),
    mean_reward_ci: ci.mean_reward_ci,
    min_reward: round(rewards.reduce((a, b) => Math.min(a, b))),
    max_reward: round(rewards.reduce((a, b) => Math.max(a, b))),
    std_reward: round(Math.sqrt(mean(rewards.map((r) => (r - m) ** 2)))),
    pass_rate: round(scored.filter((o) => o.passed).length / scored.length),
    pass_rate_ci: ci.pass_rate_ci,
    pass_hat_k: phk === null ? null : round(phk),
    mean_tool_calls: round(mean(scored.map((o) => o.toolCalls))),
    failures,
    ...truncation,
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
  provenance?: Provenance;
  /** Ids of the families kept out of training; their mean is reported apart. */
  heldOut?: readonly string[];
}

/** results.json: per-scenario and overall metrics. */
export function buildResults({
  model,
  rewardMode,
  outcomes,
  k,
  scenarios,
  provenance,
  heldOut = [],
}: ResultsInput): EvalResults {
  const ids = scenarios ?? [...new Set(outcomes.map((o) => o.scenario))];
  const held = ids.filter((id) => heldOut.includes(id));
  const of = (group: readonly string[], label?: string) =>
    summarize(
      outcomes.filter((o) => group.includes(o.scenario)),
      k,
      label,
    );
  const ran = outcomes.filter((o) => ids.includes(o.scenario));
  const lastError = lastProviderError(ran);
  const groups =
    held.length > 0
      ? {
          in_family: of(
            ids.filter((id) => !held.includes(id)),
            "in-family",
          ),
          held_out: of(held, "held-out"),
        }
      : undefined;
  return {
    model,
    reward_mode: rewardMode,
    ...(provenance ? { provenance } : {}),
    scenarios: Object.fromEntries(
      ids.map((id) => [
        id,
        summarize(
          outcomes.filter((o) => o.scenario === id),
          k,
          id,
        ),
      ]),
    ),
    overall: of(ids),
    ...(groups ? { groups } : {}),
    ...(lastError ? { last_provider_error: lastError, provider_error_types: providerErrorTypes(ran) } : {}),
  };
}
