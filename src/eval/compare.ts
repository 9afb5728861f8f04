/**
 * Comparing two finished eval runs (e.g. a baseline and a trained model): per scenario and overall, each
 * run's mean reward, pass rate and pass^k, and their differences (B − A), each with a seeded paired
 * bootstrap confidence interval over tasks (see bootstrap.ts for the method). Only runs over the same
 * tasks are compared — the same task ids and the same frozen split content — unless `commonTasks`
 * restricts both to the tasks they share. Episodes that ended in a provider error are left out. Runs
 * with workflow tasks also compare the progress rate, and each horizon apart (compare-horizons.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { UsageError } from "../errors.ts";
import type { RewardMode } from "../reward/score.ts";
import { bootstrapCompare, type Interval, type Stratum, type TaskRewards } from "./bootstrap.ts";
import { horizonRows } from "./compare-horizons.ts";
import { readEpisodeLog } from "./episode-log.ts";
import { isProviderError } from "./episode-record.ts";
import type { EvalResults } from "./metrics.ts";
import { passHatKForTask } from "./pass-hat-k.ts";
import { runFiles } from "./run-dir.ts";
import { workflowOf } from "./workflow-outcome.ts";

/** One task's scored episodes in one run. */
export interface TaskEpisodes {
  n: number;
  rewardSum: number;
  passes: number;
  /** Sum and count of the progress rates of the scored episodes that carry per-step progress. */
  progressSum: number;
  progressN: number;
  /** Steps of the task (1 for a single-family task). */
  horizon: number;
}

export interface LoadedRun {
  dir: string;
  model: string;
  rewardMode: RewardMode;
  /** Samples per task of the run. */
  k: number;
  scenarios: string[];
  /** scenario → frozen eval split hash (absent when the run did not record it). */
  splitHashes: Map<string, string | null>;
  /** scenario → task id → its scored episodes (every task of the run, even one whose episodes all errored). */
  tasks: Map<string, Map<string, TaskEpisodes>>;
  providerErrors: number;
}

const NO_EPISODES = { n: 0, rewardSum: 0, passes: 0, progressSum: 0, progressN: 0 };

export function loadRun(dir: string): LoadedRun {
  const files = runFiles(dir);
  if (!existsSync(dir)) throw new UsageError(`${dir} does not exist`);
  if (!existsSync(files.results))
    throw new UsageError(
      `${dir} has no results.json: not a finished eval run (finish it with: atlas-gym eval --resume --out ${dir})`,
    );
  const results = JSON.parse(readFileSync(files.results, "utf8")) as EvalResults;
  const scenarios = Object.keys(results.scenarios ?? {});
  const tasks = new Map(scenarios.map((id) => [id, new Map<string, TaskEpisodes>()]));
  let providerErrors = 0;
  let maxSamples = 0;
  for (const e of readEpisodeLog(files.episodes, (t) => ({
    scenario: t.scenario,
    taskId: t.task_id,
    sample: t.sample,
    reward: t.score.reward,
    passed: t.score.passed,
    errored: isProviderError(t),
    ...workflowOf(t),
  })).episodes) {
    const byTask = tasks.get(e.scenario);
    if (!byTask) continue;
    maxSamples = Math.max(maxSamples, e.sample + 1);
    const t = byTask.get(e.taskId) ?? { ...NO_EPISODES, horizon: e.workflow?.horizon ?? 1 };
    if (e.errored) {
      // The task belongs to the run; its errored episode is not scored.
      byTask.set(e.taskId, t);
      providerErrors++;
      continue;
    }
    const rate = e.workflow?.progress?.rate;
    byTask.set(e.taskId, {
      ...t,
      progressSum: t.progressSum + (rate ?? 0),
      progressN: t.progressN + (rate === undefined ? 0 : 1),
      n: t.n + 1,
      rewardSum: t.rewardSum + e.reward,
      passes: t.passes + (e.passed ? 1 : 0),
    });
  }
  const provenance = results.provenance;
  return {
    dir,
    model: results.model,
    rewardMode: results.reward_mode,
    k: provenance?.k ?? maxSamples,
    scenarios,
    splitHashes: new Map(
      Object.entries(provenance?.scenarios ?? {}).map(([id, s]) => [id, s.eval_split_sha256] as const),
    ),
    tasks,
    providerErrors,
  };
}

/** One figure of both runs and its difference, each with its interval. */
export interface CompareStat {
  a: number | null;
  a_ci: [number, number] | null;
  b: number | null;
  b_ci: [number, number] | null;
  /** B − A. */
  delta: number | null;
  delta_ci: [number, number] | null;
}

export interface CompareRow {
  tasks: number;
  episodes_a: number;
  episodes_b: number;
  mean_reward: CompareStat;
  pass_rate: CompareStat;
  /** Over the tasks with k scored samples in both runs. */
  pass_hat_k: CompareStat;
  /** When the tasks are workflows: the mean progress rate, over the tasks with progress in both runs. */
  progress_rate?: CompareStat;
}

export interface Comparison {
  a: { dir: string; model: string; provider_errors: number };
  b: { dir: string; model: string; provider_errors: number };
  reward_mode: RewardMode;
  /** The k of pass^k (the smaller of the two runs'). */
  k: number;
  /** Only the tasks both runs hold were compared (`--common-tasks`). */
  common_tasks: boolean;
  method: {
    unit: "task";
    stratified_by: "scenario";
    interval: "percentile";
    paired: true;
    resamples: number;
    seed: number;
    level: number;
  };
  scenarios: Record<string, CompareRow>;
  overall: CompareRow;
  /** When both runs hold held-out families: the in-family and the held-out scenarios, apart. */
  groups?: { in_family: CompareRow; held_out: CompareRow };
  /** When the runs hold workflow tasks: the tasks of each horizon ("1" = single family), apart. */
  horizons?: Record<string, CompareRow>;
}

export interface CompareOptions {
  resamples?: number;
  seed?: number;
  level?: number;
  /** Compare the tasks both runs hold instead of refusing runs over different tasks. */
  commonTasks?: boolean;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;
const ci = (i: Interval): [number, number] | null =>
  Number.isNaN(i.low) ? null : [round(i.low), round(i.high)];
const NONE: CompareStat = { a: null, a_ci: null, b: null, b_ci: null, delta: null, delta_ci: null };

/** The tasks each scenario's comparison covers, after the checks (or the --common-tasks restriction). */
function sharedTasks(a: LoadedRun, b: LoadedRun, common: boolean): Map<string, string[]> {
  const ids = [...a.scenarios, ...b.scenarios.filter((id) => !a.scenarios.includes(id))];
  const problems: string[] = [];
  const shared = new Map<string, string[]>();
  for (const id of ids) {
    const ta = [...(a.tasks.get(id)?.keys() ?? [])];
    const tb = new Set(b.tasks.get(id)?.keys() ?? []);
    const ha = a.splitHashes.get(id);
    const hb = b.splitHashes.get(id);
    if (ha && hb && ha !== hb) {
      problems.push(`${id}: different frozen splits (${ha.slice(0, 12)} vs ${hb.slice(0, 12)})`);
      continue;
    }
    const both = ta.filter((t) => tb.has(t)).sort();
    if (both.length !== ta.length || both.length !== tb.size)
      problems.push(`${id}: ${ta.length} tasks in A, ${tb.size} in B, ${both.length} shared`);
    if (both.length > 0) shared.set(id, both);
  }
  if (problems.length > 0 && !common)
    throw new UsageError(
      `${a.dir} and ${b.dir} cover different tasks (${problems.join("; ")}); pass --common-tasks to compare only the tasks both hold`,
    );
  if (shared.size === 0) throw new UsageError(`${a.dir} and ${b.dir} have no task in common`);
  return shared;
}

type Figure = (t: TaskEpisodes) => TaskRewards | null;

function stat(
  strata: Stratum[],
  label: string,
  options: Required<Omit<CompareOptions, "commonTasks">>,
): CompareStat {
  const used = strata.filter((s) => s.a.length > 0);
  if (used.length === 0) return NONE;
  const r = bootstrapCompare(used, label, options);
  return {
    a: round(r.a.mean),
    a_ci: ci(r.a),
    b: round(r.b.mean),
    b_ci: ci(r.b),
    delta: round(r.delta.mean),
    delta_ci: ci(r.delta),
  };
}

function row(
  a: LoadedRun,
  b: LoadedRun,
  tasks: Map<string, string[]>,
  label: string,
  k: number,
  options: Required<Omit<CompareOptions, "commonTasks">>,
): CompareRow {
  const strata = (figure: Figure): Stratum[] =>
    [...tasks].map(([scenario, ids]) => {
      const pairs = ids
        .map(
          (id) => [figure(a.tasks.get(scenario)!.get(id)!), figure(b.tasks.get(scenario)!.get(id)!)] as const,
        )
        .filter((p): p is readonly [TaskRewards, TaskRewards] => p[0] !== null && p[1] !== null);
      return { a: pairs.map((p) => p[0]), b: pairs.map((p) => p[1]), paired: true };
    });
  const progress = [...tasks].some(([s, ids]) => ids.some((id) => a.tasks.get(s)!.get(id)!.horizon > 1));
  const episodes = (run: LoadedRun) =>
    [...tasks].reduce((n, [s, ids]) => n + ids.reduce((m, id) => m + run.tasks.get(s)!.get(id)!.n, 0), 0);
  return {
    tasks: [...tasks.values()].reduce((n, ids) => n + ids.length, 0),
    episodes_a: episodes(a),
    episodes_b: episodes(b),
    mean_reward: stat(
      strata((t) => ({ sum: t.rewardSum, count: t.n })),
      `${label}:reward`,
      options,
    ),
    pass_rate: stat(
      strata((t) => ({ sum: t.passes, count: t.n })),
      `${label}:pass`,
      options,
    ),
    pass_hat_k: stat(
      strata((t) => (t.n >= k ? { sum: passHatKForTask(t.n, t.passes, k), count: 1 } : null)),
      `${label}:pass^k`,
      options,
    ),
    ...(progress
      ? {
          progress_rate: stat(
            strata((t) => (t.progressN > 0 ? { sum: t.progressSum, count: t.progressN } : null)),
            `${label}:progress`,
            options,
          ),
        }
      : {}),
  };
}

export function compareRuns(
  a: LoadedRun,
  b: LoadedRun,
  options: CompareOptions = {},
  /** Ids of the families kept out of training; their rows are pooled apart. */
  heldOut: readonly string[] = [],
): Comparison {
  const opts = {
    resamples: options.resamples ?? 2000,
    seed: options.seed ?? 0,
    level: options.level ?? 0.95,
  };
  if (a.rewardMode !== b.rewardMode)
    throw new UsageError(
      `The runs use different reward modes (${a.dir}: ${a.rewardMode}, ${b.dir}: ${b.rewardMode}); compare runs scored the same way`,
    );
  const shared = sharedTasks(a, b, options.commonTasks ?? false);
  const k = Math.max(1, Math.min(a.k, b.k));
  const scenarios = Object.fromEntries(
    [...shared].map(([id, ids]) => [id, row(a, b, new Map([[id, ids]]), id, k, opts)]),
  );
  const only = (keep: (id: string) => boolean) => new Map([...shared].filter(([id]) => keep(id)));
  const held = only((id) => heldOut.includes(id));
  const inFamily = only((id) => !heldOut.includes(id));
  const groups =
    held.size > 0 && inFamily.size > 0
      ? {
          in_family: row(a, b, inFamily, "in-family", k, opts),
          held_out: row(a, b, held, "held-out", k, opts),
        }
      : undefined;
  return {
    a: { dir: a.dir, model: a.model, provider_errors: a.providerErrors },
    b: { dir: b.dir, model: b.model, provider_errors: b.providerErrors },
    reward_mode: a.rewardMode,
    k,
    common_tasks: options.commonTasks ?? false,
    method: { unit: "task", stratified_by: "scenario", interval: "percentile", paired: true, ...opts },
    scenarios,
    overall: row(a, b, shared, "overall", k, opts),
    ...(groups ? { groups } : {}),
    ...horizonRows(
      shared,
      (scenario, id) => a.tasks.get(scenario)!.get(id)!.horizon,
      (tasks, label) => row(a, b, tasks, label, k, opts),
    ),
  };
}
