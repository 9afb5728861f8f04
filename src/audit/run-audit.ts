/**
 * The reward audit: runs every scripted policy and N seeded perturbations of the reference on each task,
 * scores every trace in every reward mode, and reports how much a trace that fails the end-state check
 * can earn, whether noop earns anything, how often a GRPO group would have no variance, and whether a
 * non-passing policy reaches the reference's reward (saturation).
 */
import { SCRIPTED_POLICIES } from "../agent/scripted/policies.ts";
import { recordReference, replay } from "../agent/scripted/replay.ts";
import { createEpisode, type Episode } from "../env/episode.ts";
import { REWARD_MODES, type RewardMode } from "../reward/score.ts";
import { createRandom } from "../sandbox/random.ts";
import type { Scenario, Task } from "../scenarios/define-scenario.ts";
import { perturb } from "./perturb.ts";

export interface AuditedTrace {
  task: string;
  source: string;
  passed: boolean;
  rewards: Record<RewardMode, number>;
  explanation: string;
}

export interface ScenarioAudit {
  scenario: string;
  tasks: number;
  traces: number;
  /** Highest reward of any trace that fails the state check, per mode, with that trace. */
  worstFailing: Record<RewardMode, AuditedTrace | null>;
  noopAboveZeroShare: number;
  zeroVarianceShare: number;
  groupSize: number;
  referenceReward: number;
  saturationWarnings: string[];
}

export interface AuditOptions {
  samples: number;
  groupSize: number;
  seed: number;
}

export function auditScenario(
  scenario: Scenario,
  tasks: readonly Task[],
  options: AuditOptions,
): ScenarioAudit {
  const traces: AuditedTrace[] = [];
  const warnings = new Set<string>();
  let noopAboveZero = 0;
  let zeroVarianceGroups = 0;
  let groups = 0;
  for (const task of tasks) {
    const random = createRandom(`${options.seed}:${task.id}`);
    const taskTraces: AuditedTrace[] = [];
    const record = (source: string, episode: Episode) => {
      const scores = REWARD_MODES.map((mode) => episode.score(mode));
      const trace: AuditedTrace = {
        task: task.id,
        source,
        passed: scores[0]!.passed,
        rewards: Object.fromEntries(scores.map((s) => [s.mode, s.reward])) as Record<RewardMode, number>,
        explanation: scores[0]!.explanation,
      };
      taskTraces.push(trace);
      return trace;
    };
    for (const policy of SCRIPTED_POLICIES) {
      const episode = createEpisode(scenario, task);
      policy.play(episode, random.derive(policy.name));
      const trace = record(`policy:${policy.name}`, episode);
      if (policy.name === "noop" && trace.rewards.paper > 0) noopAboveZero++;
    }
    const reference = recordReference(scenario, task);
    for (let s = 0; s < options.samples; s++) {
      const perturbed = perturb(reference, random);
      const episode = createEpisode(scenario, task);
      replay(episode, perturbed.script);
      record(`perturbed:${perturbed.description}`, episode);
    }
    const referenceReward = taskTraces.find((t) => t.source === "policy:reference")!.rewards.paper;
    for (const t of taskTraces) {
      if (!t.passed && t.rewards.paper >= referenceReward)
        warnings.add(
          `${t.task}: ${t.source} fails the state check but earns ${t.rewards.paper} (reference ${referenceReward})`,
        );
    }
    for (let g = 0; g < 20; g++) {
      const group = Array.from({ length: options.groupSize }, () => random.pick(taskTraces).rewards.paper);
      groups++;
      if (group.every((r) => r === group[0])) zeroVarianceGroups++;
    }
    traces.push(...taskTraces);
  }
  const worstFailing = Object.fromEntries(
    REWARD_MODES.map((mode) => [
      mode,
      traces
        .filter((t) => !t.passed)
        .reduce<AuditedTrace | null>(
          (w, t) => (w === null || t.rewards[mode] > w.rewards[mode] ? t : w),
          null,
        ),
    ]),
  ) as Record<RewardMode, AuditedTrace | null>;
  const references = traces.filter((t) => t.source === "policy:reference").map((t) => t.rewards.paper);
  return {
    scenario: scenario.id,
    tasks: tasks.length,
    traces: traces.length,
    worstFailing,
    noopAboveZeroShare: noopAboveZero / Math.max(1, tasks.length),
    zeroVarianceShare: zeroVarianceGroups / Math.max(1, groups),
    groupSize: options.groupSize,
    referenceReward: Math.min(...references),
    saturationWarnings: [...warnings],
  };
}
