/**
 * Test helpers for task families: score a task's reference solution, or an edited copy of its calls, on
 * a fresh episode with the reward engine (the same path eval and training take).
 */
import { expect } from "vitest";
import { recordReference, replay, runReference } from "../../src/agent/scripted/replay.ts";
import { createEpisode, type Episode } from "../../src/env/episode.ts";
import type { Score } from "../../src/reward/score.ts";
import type { Scenario, Split, Task } from "../../src/scenarios/define-scenario.ts";
import { generateTask } from "../../src/scenarios/tasks.ts";
import type { ToolCallRequest } from "../../src/tools/tool-call-result.ts";

export interface Played<E> {
  task: Task<E>;
  episode: Episode;
  score: Score;
}

export function playReference<E>(scenario: Scenario<E>, split: Split, index: number): Played<E> {
  const { task, site } = generateTask(scenario, split, index);
  const episode = createEpisode(scenario, task, { initialSite: site });
  runReference(episode);
  return { task, episode, score: episode.score() };
}

/** Why the reference of a task is not a perfect, clean solution (empty when it is). */
export function referenceProblems<E>(scenario: Scenario<E>, split: Split, index: number): string[] {
  const { episode, score } = playReference(scenario, split, index);
  const problems = episode.calls.filter((c) => !c.ok).map((c) => `${c.name} failed: ${c.observation}`);
  if (score.reward !== 1 || !score.passed) problems.push(score.explanation);
  if (episode.calls.length > episode.expectation.budget) problems.push("over the budget");
  return problems;
}

/** Why the references of train tasks 0..n-1 are not perfect, clean solutions, by task (empty when all are). */
export function trainReferenceProblems<E>(scenario: Scenario<E>, n: number): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (let i = 0; i < n; i++) {
    const problems = referenceProblems(scenario, "train", i);
    if (problems.length > 0) found[`train ${i}`] = problems;
  }
  return found;
}

/** Scores the reference's calls after `edit`, with the reference's final answer. */
export function scoreEdited<E>(
  scenario: Scenario<E>,
  split: Split,
  index: number,
  edit: (calls: ToolCallRequest[], task: Task<E>) => ToolCallRequest[],
): Score {
  const { task, site } = generateTask(scenario, split, index);
  const script = recordReference(scenario, task);
  const episode = createEpisode(scenario, task, { initialSite: site });
  replay(episode, { ...script, calls: edit(script.calls, task) });
  return episode.score();
}

const isWrite = (call: ToolCallRequest, names: readonly string[]) => names.includes(call.name);

/** The calls with every call to one of `writes` replaced, at the first one's place, by `replacement`. */
export function replaceWrites(
  calls: ToolCallRequest[],
  writes: readonly string[],
  ...replacement: ToolCallRequest[]
): ToolCallRequest[] {
  const first = calls.findIndex((c) => isWrite(c, writes));
  const kept = calls.filter((c) => !isWrite(c, writes));
  const at = first < 0 ? kept.length : first;
  return [...kept.slice(0, at), ...replacement, ...kept.slice(at)];
}

/** Indices of a split's tasks (eval: all 12; train: the first `n`) whose expected value passes `test`. */
export function tasksWhere<E>(
  scenario: Scenario<E>,
  split: Split,
  test: (expected: E) => boolean,
  n = 12,
): number[] {
  return Array.from({ length: n }, (_, i) => i).filter((i) =>
    test(generateTask(scenario, split, i).task.expected),
  );
}

/**
 * Checks the first eval task `isRefusal` selects: its reference only reads, and doing the work anyway (the
 * reference's calls, then `write`) fails with a collateral change. Returns the played reference.
 */
export function expectRefusalHolds<E>(
  scenario: Scenario<E>,
  isRefusal: (expected: E) => boolean,
  write: (refused: Played<E>) => ToolCallRequest,
): Played<E> {
  const index = tasksWhere(scenario, "eval", isRefusal)[0];
  expect(index, "an eval task that must be refused").toBeDefined();
  const refused = playReference(scenario, "eval", index!);
  expect(refused.episode.calls.every((c) => c.effect === "read")).toBe(true);
  const extra = write(refused);
  const complied = scoreEdited(scenario, "eval", index!, (calls) => [...calls, extra]);
  expect(complied.passed, complied.explanation).toBe(false);
  expect(complied.violations.map((v) => v.code)).toContain("collateral_change");
  return refused;
}
