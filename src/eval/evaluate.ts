/**
 * evaluate(): one eval run end to end — checks the configuration and the run directory, creates the
 * policy, runs the planned episodes (skipping those already logged when resuming), and writes
 * results.json and the reports. Every check that can fail runs before anything is written, so bad input
 * leaves the directory as it was.
 */
import { existsSync, mkdirSync } from "node:fs";
import { createPolicy } from "../agent/providers/index.ts";
import type { Policy } from "../agent/types.ts";
import { UsageError } from "../errors.ts";
import { createEpisode } from "../scenarios/episode.ts";
import { findScenario } from "../scenarios/index.ts";
import { EVAL_TASKS } from "../scenarios/tasks.ts";
import { episodeKey, openEpisodeLog, readEpisodeLog } from "./episode-log.ts";
import type { EvalResults } from "./metrics.ts";
import type { Progress } from "./progress.ts";
import {
  EvalConfig,
  type EvalConfigInput,
  identityConflicts,
  readRunConfig,
  runFiles,
  writeRunConfig,
} from "./run-dir.ts";
import { type PlannedEpisode, planEpisodes, runEpisodes } from "./run-episodes.ts";
import { writeReports } from "./write-reports.ts";

export interface EvaluateOptions {
  config: EvalConfigInput;
  dir: string;
  /** Continue the run in `dir`: skip the episodes already in its log. */
  resume?: boolean;
  signal?: AbortSignal;
  progress?: Progress;
  /** The policy to evaluate (default: created from `config.model`). */
  policy?: Policy;
}

/** Providers that load something first (a local model) or hold resources expose these. */
type PolicyLifecycle = Policy & { init?(): Promise<void>; close?(): Promise<void> };

function policyFor(config: EvalConfig): PolicyLifecycle {
  const local = config.model.startsWith("local:") ? { parallel: config.concurrency } : {};
  return createPolicy(config.model, { seed: config.seed, ...config.provider, ...local });
}

export interface EvaluateSummary {
  ran: number;
  skipped: number;
  /** The signal stopped the run; nothing but the episode log was written. */
  aborted: boolean;
  /** Set when the run finished. */
  results?: EvalResults;
}

export async function evaluate(options: EvaluateOptions): Promise<EvaluateSummary> {
  const { dir } = options;
  const parsed = EvalConfig.safeParse(options.config);
  if (!parsed.success)
    throw new UsageError(
      `Invalid eval configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  const config = parsed.data;
  const files = runFiles(dir);
  const logged = readEpisodeLog(files.episodes, () => null).keys.size;
  if (logged > 0 && !options.resume)
    throw new UsageError(
      `${files.episodes} already holds ${logged} episodes; pass --resume to continue that run or choose another --out`,
    );
  const saved = options.resume ? readRunConfig(dir) : undefined;
  const conflicts = saved ? identityConflicts(saved, config) : [];
  if (conflicts.length > 0)
    throw new UsageError(`Cannot resume ${dir} with different settings (${conflicts.join("; ")})`);
  if (config.split === "eval" && config.n !== undefined && config.n > EVAL_TASKS)
    throw new UsageError(
      `The eval split has ${EVAL_TASKS} tasks per scenario; --n ${config.n} asks for more`,
    );
  const scenarios = config.scenarios.map(findScenario);
  const plan = planEpisodes(scenarios, config.split, config.n, config.k);
  checkToolSet(config, plan);
  const policy: PolicyLifecycle = options.policy ?? policyFor(config);
  // A model that cannot load (e.g. a local GGUF that is not there) fails here, before anything is written.
  await policy.init?.();
  try {
    return await run(dir, config, plan, policy, options);
  } finally {
    await policy.close?.();
  }
}

/**
 * A tool set other than the default must cover every planned scenario (else ToolSetNotCoveredError names
 * what is missing), and scripted policies speak only the default tool names.
 */
function checkToolSet(config: EvalConfig, plan: readonly PlannedEpisode[]): void {
  if (config.tools === "default") return;
  if (config.model.startsWith("policy:")) {
    throw new UsageError(`Scripted policies call the default tools; --tools ${config.tools} needs a model`);
  }
  const firstTasks = new Map(plan.map((p) => [p.scenario.id, p] as const));
  for (const { scenario, task } of firstTasks.values())
    createEpisode(scenario, task, { toolSet: config.tools });
}

async function run(
  dir: string,
  config: EvalConfig,
  plan: PlannedEpisode[],
  policy: Policy,
  options: EvaluateOptions,
): Promise<EvaluateSummary> {
  const files = runFiles(dir);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  writeRunConfig(dir, config);
  const planned = new Set(plan.map((p) => p.key));
  const done = readEpisodeLog(files.episodes, (t) => ({
    key: episodeKey(t.taskId, t.sample),
    reward: t.score.reward,
  })).episodes.filter((e) => planned.has(e.key));
  const log = openEpisodeLog(files.episodes);
  options.progress?.start(
    plan.length,
    done.length,
    done.reduce((s, e) => s + e.reward, 0),
  );
  let summary: Awaited<ReturnType<typeof runEpisodes>>;
  try {
    summary = await runEpisodes({
      plan,
      policy,
      model: config.model,
      reward: config.reward,
      maxTurns: config.maxTurns,
      concurrency: config.concurrency,
      toolSet: config.tools,
      log,
      signal: options.signal,
      onEpisode: (trace) => options.progress?.episode(trace.score.reward),
    });
  } finally {
    options.progress?.stop();
    log.close();
  }
  if (summary.aborted) return summary;
  const { results } = await writeReports(dir, config, { keys: planned, scenarios: config.scenarios });
  return { ...summary, results };
}
