/**
 * evaluate(): one eval run end to end — checks the configuration and the run directory, creates the
 * policy and checks that its provider answers (preflight), runs the planned episodes (when resuming,
 * skipping those already logged, except the ones that ended in a provider error), and writes
 * results.json and the reports, each with the run's provenance. Every check that can fail runs before
 * anything is written, so bad input or an unreachable model server leaves the directory as it was.
 */
import { existsSync, mkdirSync } from "node:fs";
import { createPolicy } from "../agent/providers/index.ts";
import type { AnyPolicy } from "../agent/types.ts";
import { createEpisode } from "../env/episode.ts";
import { UsageError } from "../errors.ts";
import { findScenario } from "../scenarios/index.ts";
import { EVAL_TASKS } from "../scenarios/tasks.ts";
import { episodeKey, openEpisodeLog, readEpisodeLog } from "./episode-log.ts";
import type { EvalResults } from "./metrics.ts";
import type { Progress } from "./progress.ts";
import { type Provenance, provenanceOf } from "./provenance.ts";
import {
  EvalConfig,
  type EvalConfigInput,
  identityConflicts,
  readRunFile,
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
  policy?: AnyPolicy;
  /** Clock of the provenance's start and end times (default: the system clock). */
  now?: () => Date;
}

function policyFor(config: EvalConfig): AnyPolicy {
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

/** Episodes of a finished run that ended in a provider error (0 when it did not finish). */
export const providerErrors = (summary: EvaluateSummary) => summary.results?.overall.provider_errors ?? 0;

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
  const savedRun = options.resume ? readRunFile(dir) : undefined;
  const saved = savedRun?.config;
  const conflicts = saved ? identityConflicts(saved, config) : [];
  if (conflicts.length > 0)
    throw new UsageError(`Cannot resume ${dir} with different settings (${conflicts.join("; ")})`);
  if (config.split === "eval" && config.n !== undefined && config.n > EVAL_TASKS)
    throw new UsageError(
      `The eval split has ${EVAL_TASKS} tasks per scenario; --n ${config.n} asks for more`,
    );
  const scenarios = config.scenarios.map(findScenario);
  const plan = planEpisodes(scenarios, config.split, config.n, config.k, config.levels);
  checkToolSet(config, plan);
  const policy: AnyPolicy = options.policy ?? policyFor(config);
  // A model that cannot load (e.g. a local GGUF that is not there) fails here, before anything is written.
  await policy.init?.();
  try {
    // An unreachable server or a model it does not serve fails here, in one line, before any episode.
    await policy.preflight?.(options.signal);
    const now = options.now ?? (() => new Date());
    const provenance = {
      ...provenanceOf(config, now()),
      ...(savedRun ? { started_at: savedRun.provenance.started_at } : {}),
    };
    return await run(dir, config, plan, policy, { ...options, now }, provenance);
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
  policy: AnyPolicy,
  options: EvaluateOptions & { now: () => Date },
  provenance: Provenance,
): Promise<EvaluateSummary> {
  const files = runFiles(dir);
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  writeRunConfig(dir, config, provenance);
  const planned = new Set(plan.map((p) => p.key));
  const logged = readEpisodeLog(files.episodes, (t) => ({
    key: episodeKey(t.task_id, t.sample),
    reward: t.score.reward,
  }));
  const done = logged.episodes.filter((e) => planned.has(e.key) && !logged.providerErrors.has(e.key));
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
  const ended = { ...provenance, ended_at: options.now().toISOString() };
  writeRunConfig(dir, config, ended);
  const { results } = await writeReports(dir, config, {
    keys: planned,
    scenarios: config.scenarios,
    provenance: ended,
  });
  return { ...summary, results };
}
