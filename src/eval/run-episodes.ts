/**
 * The suite runner: plans the (task, sample) episodes of a run, skips those already in the episode log,
 * and runs the rest through the rollout loop with bounded concurrency, appending each trace to the log
 * the moment it finishes. A failed episode is data (the rollout records provider failures); an abort
 * stops new episodes and drops the interrupted ones, so a resumed run repeats nothing and loses nothing.
 * An exception (a bug) stops the other workers and is rethrown.
 */

import { setMaxListeners } from "node:events";
import { withChildSignal } from "../agent/child-signal.ts";
import { runEpisode } from "../agent/rollout.ts";
import type { AnyPolicy, EpisodeTrace } from "../agent/types.ts";
import { createEpisode } from "../env/episode.ts";
import type { RewardMode } from "../reward/score.ts";
import type { Level, Scenario, Split, Task } from "../scenarios/define-scenario.ts";
import { tasksAtLevels, tasksFor } from "../scenarios/frozen.ts";
import type { ToolSetName } from "../tools/aliases/tool-sets.ts";
import { type EpisodeLog, episodeKey } from "./episode-log.ts";

export interface PlannedEpisode {
  scenario: Scenario;
  task: Task;
  sample: number;
  key: string;
}

/**
 * Every scenario's first `n` tasks of the split (of those `levels` only, when given), each `k` times, in
 * scenario, task, sample order.
 */
export function planEpisodes(
  scenarios: readonly Scenario[],
  split: Split,
  n: number | undefined,
  k: number,
  levels?: readonly Level[],
): PlannedEpisode[] {
  return scenarios.flatMap((scenario) =>
    (levels ? tasksAtLevels(scenario, split, levels, n) : tasksFor(scenario, split, n)).flatMap((task) =>
      Array.from({ length: k }, (_, sample) => ({
        scenario,
        task,
        sample,
        key: episodeKey(task.id, sample),
      })),
    ),
  );
}

export interface RunEpisodesOptions {
  plan: readonly PlannedEpisode[];
  policy: AnyPolicy;
  /** Model name recorded on each trace. */
  model: string;
  reward: RewardMode;
  /** The run's turn limit (absent: each task's own, src/agent/turn-limit.ts). */
  maxTurns?: number;
  concurrency: number;
  /** The tool set episodes offer (default: the default catalogue). */
  toolSet?: ToolSetName;
  log: EpisodeLog;
  signal?: AbortSignal;
  /** Called after each episode is in the log. */
  onEpisode?: (trace: EpisodeTrace) => void;
}

export interface RunEpisodesSummary {
  /** Episodes run and logged now. */
  ran: number;
  /** Planned episodes that were already in the log. */
  skipped: number;
  /** Whether the signal stopped the run before every planned episode was logged. */
  aborted: boolean;
}

export async function runEpisodes(options: RunEpisodesOptions): Promise<RunEpisodesSummary> {
  const todo = options.plan.filter((p) => !options.log.keys.has(p.key));
  const stop = new AbortController();
  // One listener per episode in flight (withChildSignal): bounded by the concurrency.
  setMaxListeners(0, stop.signal);
  const onAbort = () => stop.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) stop.abort(options.signal.reason);
  let next = 0;
  let ran = 0;
  const worker = async () => {
    while (next < todo.length && !stop.signal.aborted) {
      const item = todo[next++]!;
      const episode = createEpisode(item.scenario, item.task, { toolSet: options.toolSet });
      const trace = await withChildSignal(stop.signal, (signal) =>
        runEpisode(episode, options.policy, {
          maxTurns: options.maxTurns,
          signal,
          model: options.model,
          sample: item.sample,
          reward: options.reward,
        }),
      );
      // An episode the abort interrupted is not finished: leave it for --resume.
      if (stop.signal.aborted) break;
      options.log.append(trace);
      ran++;
      options.onEpisode?.(trace);
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(options.concurrency, todo.length)) }, () =>
    worker().catch((error: unknown) => {
      stop.abort(error);
      throw error;
    }),
  );
  try {
    const settled = await Promise.allSettled(workers);
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (failed) throw failed.reason;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
  return {
    ran,
    skipped: options.plan.length - todo.length,
    aborted: options.plan.some((p) => !options.log.keys.has(p.key)),
  };
}
