/**
 * results.json's `horizons`: when a run holds workflow episodes, the figures per horizon (the number of
 * steps; the run's single-family episodes are horizon 1): every figure a scenario row carries (episodes,
 * mean reward and pass rate with their bootstrap intervals, pass^k, failures, ...), plus the **progress
 * rate** (the mean of `score.progress.rate`, with the same interval) and the failure taxonomy per step:
 * how many episodes first failed at step k, with which failure kind and in which step family. Like every
 * other figure, these cover the scored episodes only (provider errors are left out).
 */
import { type EpisodeOutcome, meanInterval, round, type ScenarioResults, summarize } from "./metrics.ts";

/** The episodes whose first failing step was `step`. */
export interface StepFailures {
  /** 1-based. */
  step: number;
  episodes: number;
  /** Episodes per failure kind of that step (a finding kind such as `missing_mutation`, or a violation code). */
  kinds: Record<string, number>;
  /** Episodes per family (scenario id) of that step. */
  families: Record<string, number>;
}

export interface HorizonResults extends ScenarioResults {
  /** The scenarios whose episodes have this horizon, in order of first appearance. */
  scenarios: string[];
  /** Scored episodes whose score carries per-step progress (the progress figures cover these). */
  episodes_with_progress: number;
  /** Mean of the episodes' progress rate (holding steps / steps); null without progress. */
  progress_rate: number | null;
  progress_rate_ci: [number, number] | null;
  /** Episodes in which every step held. */
  all_steps_held: number;
  /** For each step 1..horizon, the episodes that first failed there (empty without progress). */
  first_failed_step: StepFailures[];
}

/** The horizon an episode counts under: its number of steps, 1 for a single-family episode. */
export const horizonOf = (o: EpisodeOutcome) => o.workflow?.horizon ?? 1;

/** The run holds at least one workflow episode (only then do the reports show horizons). */
export const hasWorkflows = (outcomes: readonly EpisodeOutcome[]) => outcomes.some((o) => o.workflow);

const bump = (counts: Record<string, number>, key: string) => {
  counts[key] = (counts[key] ?? 0) + 1;
};

function perStep(horizon: number, withProgress: readonly EpisodeOutcome[]): StepFailures[] {
  if (withProgress.length === 0) return [];
  const steps = Array.from(
    { length: horizon },
    (_, i): StepFailures => ({
      step: i + 1,
      episodes: 0,
      kinds: {},
      families: {},
    }),
  );
  for (const o of withProgress) {
    const first = o.workflow?.progress?.firstFailed;
    if (!first) continue;
    // A step number outside 1..horizon (a malformed record) still counts, in a row of its own.
    let row = steps.find((s) => s.step === first.step);
    if (!row) {
      row = { step: first.step, episodes: 0, kinds: {}, families: {} };
      steps.push(row);
    }
    row.episodes++;
    bump(row.kinds, first.failure);
    bump(row.families, first.scenario);
  }
  return steps.sort((a, b) => a.step - b.step);
}

/** The figures of one horizon's episodes; `k` is the samples per task. */
export function summarizeHorizon(
  horizon: number,
  outcomes: readonly EpisodeOutcome[],
  k: number,
): HorizonResults {
  const label = `horizon-${horizon}`;
  const scored = outcomes.filter((o) => o.error === null);
  const withProgress = scored.filter((o) => o.workflow?.progress);
  const rates = withProgress.map((o) => o.workflow!.progress!.rate);
  return {
    ...summarize(outcomes, k, label),
    scenarios: [...new Set(outcomes.map((o) => o.scenario))],
    episodes_with_progress: withProgress.length,
    progress_rate: rates.length === 0 ? null : round(rates.reduce((s, x) => s + x, 0) / rates.length),
    progress_rate_ci:
      rates.length === 0
        ? null
        : meanInterval(withProgress, (o) => o.workflow!.progress!.rate, `${label}:progress`),
    all_steps_held: withProgress.filter((o) => o.workflow!.progress!.firstFailed === null).length,
    first_failed_step: perStep(horizon, withProgress),
  };
}

/** `{ horizons }` keyed by horizon ("1", "2", ...) when the run holds workflow episodes, else nothing. */
export function horizonResults(
  outcomes: readonly EpisodeOutcome[],
  k: number,
): { horizons?: Record<string, HorizonResults> } {
  if (!hasWorkflows(outcomes)) return {};
  const horizons = [...new Set(outcomes.map(horizonOf))].sort((a, b) => a - b);
  return {
    horizons: Object.fromEntries(
      horizons.map((h) => [
        String(h),
        summarizeHorizon(
          h,
          outcomes.filter((o) => horizonOf(o) === h),
          k,
        ),
      ]),
    ),
  };
}
