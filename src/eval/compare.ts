/**
 * Comparing two finished eval runs (e.g. a baseline and a trained model): per scenario and overall, each
 * run's mean reward and their difference (B − A), each with a seeded bootstrap confidence interval over
 * tasks (see bootstrap.ts for the method).
 */
import { existsSync, readFileSync } from "node:fs";
import { UsageError } from "../errors.ts";
import type { RewardMode } from "../reward/score.ts";
import { bootstrapCompare, type Interval, type Stratum, type TaskRewards } from "./bootstrap.ts";
import { readEpisodeLog } from "./episode-log.ts";
import type { EvalResults } from "./metrics.ts";
import { runFiles } from "./run-dir.ts";

export interface LoadedRun {
  dir: string;
  model: string;
  rewardMode: RewardMode;
  scenarios: string[];
  /** scenario → task id → its episodes' rewards. */
  tasks: Map<string, Map<string, TaskRewards>>;
}

export function loadRun(dir: string): LoadedRun {
  const files = runFiles(dir);
  if (!existsSync(files.results))
    throw new UsageError(
      `${dir} has no results.json: not a finished eval run (finish it with: atlas-gym eval --resume --out ${dir})`,
    );
  const results = JSON.parse(readFileSync(files.results, "utf8")) as EvalResults;
  const scenarios = Object.keys(results.scenarios ?? {});
  const tasks = new Map(scenarios.map((id) => [id, new Map<string, TaskRewards>()]));
  for (const e of readEpisodeLog(files.episodes, (t) => ({
    scenario: t.scenario,
    taskId: t.taskId,
    reward: t.score.reward,
  })).episodes) {
    const byTask = tasks.get(e.scenario);
    if (!byTask) continue;
    const t = byTask.get(e.taskId) ?? { sum: 0, count: 0 };
    byTask.set(e.taskId, { sum: t.sum + e.reward, count: t.count + 1 });
  }
  return { dir, model: results.model, rewardMode: results.reward_mode, scenarios, tasks };
}

export interface CompareRow {
  tasks_a: number;
  tasks_b: number;
  episodes_a: number;
  episodes_b: number;
  /** Both runs hold the same tasks, so the bootstrap drew them together. */
  paired: boolean;
  a_mean: number | null;
  a_ci: [number, number] | null;
  b_mean: number | null;
  b_ci: [number, number] | null;
  /** B − A. */
  delta: number | null;
  delta_ci: [number, number] | null;
}

export interface Comparison {
  a: { dir: string; model: string };
  b: { dir: string; model: string };
  reward_mode: RewardMode;
  method: {
    unit: "task";
    stratified_by: "scenario";
    interval: "percentile";
    resamples: number;
    seed: number;
    level: number;
  };
  scenarios: Record<string, CompareRow>;
  overall: CompareRow;
  /** When both runs hold held-out families: the in-family and the held-out scenarios, apart. */
  groups?: { in_family: CompareRow; held_out: CompareRow };
}

export interface CompareOptions {
  resamples?: number;
  seed?: number;
  level?: number;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;
const ci = (i: Interval): [number, number] => [round(i.low), round(i.high)];
const episodes = (tasks: Iterable<TaskRewards>) => [...tasks].reduce((n, t) => n + t.count, 0);

function stratum(a: Map<string, TaskRewards>, b: Map<string, TaskRewards>): Stratum {
  const ids = [...a.keys()].sort();
  const paired = ids.length === b.size && ids.every((id) => b.has(id));
  return {
    a: ids.map((id) => a.get(id)!),
    b: (paired ? ids : [...b.keys()].sort()).map((id) => b.get(id)!),
    paired,
  };
}

function row(strata: Stratum[], label: string, options: Required<CompareOptions>): CompareRow {
  const r = bootstrapCompare(strata, label, options);
  return {
    tasks_a: strata.reduce((n, s) => n + s.a.length, 0),
    tasks_b: strata.reduce((n, s) => n + s.b.length, 0),
    episodes_a: strata.reduce((n, s) => n + episodes(s.a), 0),
    episodes_b: strata.reduce((n, s) => n + episodes(s.b), 0),
    paired: strata.every((s) => s.paired),
    a_mean: round(r.a.mean),
    a_ci: ci(r.a),
    b_mean: round(r.b.mean),
    b_ci: ci(r.b),
    delta: round(r.delta.mean),
    delta_ci: ci(r.delta),
  };
}

/** A row for a scenario only one run has: its mean, no interval for the other side or the delta. */
function oneSided(
  side: "a" | "b",
  tasks: Map<string, TaskRewards>,
  options: Required<CompareOptions>,
): CompareRow {
  const s: Stratum = { a: [...tasks.values()], b: [...tasks.values()], paired: true };
  const r = bootstrapCompare([s], `${side}-only`, options);
  const present = { mean: round(r.a.mean), ci: ci(r.a) };
  return {
    tasks_a: side === "a" ? tasks.size : 0,
    tasks_b: side === "b" ? tasks.size : 0,
    episodes_a: side === "a" ? episodes(tasks.values()) : 0,
    episodes_b: side === "b" ? episodes(tasks.values()) : 0,
    paired: false,
    a_mean: side === "a" ? present.mean : null,
    a_ci: side === "a" ? present.ci : null,
    b_mean: side === "b" ? present.mean : null,
    b_ci: side === "b" ? present.ci : null,
    delta: null,
    delta_ci: null,
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
  const ids = [...a.scenarios, ...b.scenarios.filter((id) => !a.scenarios.includes(id))];
  const shared = ids.filter((id) => a.tasks.get(id)?.size && b.tasks.get(id)?.size);
  if (shared.length === 0)
    throw new UsageError(`${a.dir} and ${b.dir} have no scenario with episodes in common`);
  const scenarios: Record<string, CompareRow> = {};
  for (const id of ids) {
    const ta = a.tasks.get(id);
    const tb = b.tasks.get(id);
    if (ta?.size && tb?.size) scenarios[id] = row([stratum(ta, tb)], id, opts);
    else if (ta?.size) scenarios[id] = oneSided("a", ta, opts);
    else if (tb?.size) scenarios[id] = oneSided("b", tb, opts);
  }
  const pooled = (group: string[], label: string) =>
    row(
      group.map((id) => stratum(a.tasks.get(id)!, b.tasks.get(id)!)),
      label,
      opts,
    );
  const overall = pooled(shared, "overall");
  const held = shared.filter((id) => heldOut.includes(id));
  const inFamily = shared.filter((id) => !heldOut.includes(id));
  const groups =
    held.length > 0 && inFamily.length > 0
      ? { in_family: pooled(inFamily, "in-family"), held_out: pooled(held, "held-out") }
      : undefined;
  return {
    a: { dir: a.dir, model: a.model },
    b: { dir: b.dir, model: b.model },
    reward_mode: a.rewardMode,
    method: { unit: "task", stratified_by: "scenario", interval: "percentile", ...opts },
    scenarios,
    overall,
    ...(groups ? { groups } : {}),
  };
}
