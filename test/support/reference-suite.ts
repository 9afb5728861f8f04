/**
 * Checks every task family built on expectations runs beside the invariant suite: on every eval task
 * and 12 train tasks the reference (played through an episode and scored by the reward engine) makes
 * only successful calls and scores 1.0 with the state check passed, a task to decline is declined
 * without a write, and the eval split spreads over levels 1–3 with eval task 11 to decline. Also the
 * state verdict of a hand-made end state, for a family's "a wrong end state fails" tests.
 */
import { expect, it } from "vitest";
import { runReference } from "../../src/agent/scripted/replay.ts";
import { createEpisode } from "../../src/env/episode.ts";
import { judgeState } from "../../src/reward/verdict.ts";
import { diff } from "../../src/sandbox/diff.ts";
import { DEFAULT_BASE_URL } from "../../src/sandbox/fixtures/default-site.ts";
import type { Site } from "../../src/sandbox/site.ts";
import type { Scenario, Split, Task } from "../../src/scenarios/define-scenario.ts";
import { referenceChanges } from "../../src/scenarios/reference-outcome.ts";
import { EVAL_TASKS, generateTask } from "../../src/scenarios/tasks.ts";

const ctx = { baseUrl: DEFAULT_BASE_URL };
const indices = (split: Split, n: number) => [...Array(n).keys()].map((i) => [split, i] as const);

/** Plays the reference of a generated task through an episode; the episode, its answer and score. */
export function playReference<E>(scenario: Scenario<E>, split: Split, index: number) {
  const { task, site } = generateTask(scenario, split, index);
  const episode = createEpisode(scenario, task, { initialSite: site });
  const answer = runReference(episode);
  episode.finish(answer);
  return { task, initial: site, episode, answer, score: episode.score() };
}

/** Whether `final` passes the task's state check (judged with the reference's defaults). */
export function passesState<E>(scenario: Scenario<E>, task: Task<E>, initial: Site, final: Site): boolean {
  const expectation = scenario.expect(task, initial, ctx);
  const reference = referenceChanges(scenario, task, initial, DEFAULT_BASE_URL);
  return judgeState(expectation, diff(initial, final), reference).passed;
}

export function referenceSuite<E>(scenario: Scenario<E>): void {
  it.each([...indices("eval", EVAL_TASKS), ...indices("train", 12)])(
    "the reference solves %s task %i: every call ok, reward 1.0, state passed",
    (split, index) => {
      const { task, episode, answer, score } = playReference(scenario, split, index);
      expect(episode.calls.filter((c) => !c.ok)).toEqual([]);
      expect(score.reward, score.explanation).toBe(1);
      expect(score.passed).toBe(true);
      if (episode.expectation.refuse) {
        expect(task.level).toBe(3);
        expect(episode.calls.some((c) => c.effect === "write")).toBe(false);
        expect(answer).toMatch(/did not change/);
      } else expect(episode.expectation.entities.length).toBeGreaterThan(0);
    },
  );

  it("spreads the eval split over levels 1-3 with eval task 11 to decline", () => {
    const tasks = [...Array(EVAL_TASKS).keys()].map((i) => generateTask(scenario, "eval", i));
    expect(tasks.map((t) => t.task.level)).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
    const declined = tasks.filter((t) => scenario.expect(t.task, t.site, ctx).refuse);
    expect(declined.map((t) => t.task.index)).toEqual([11]);
  });

  it("introduces names from disjoint split pools", () => {
    const evalNames = new Set(
      [...Array(EVAL_TASKS).keys()].flatMap((i) =>
        scenario.introduces(generateTask(scenario, "eval", i).task.expected),
      ),
    );
    expect(evalNames.size).toBeGreaterThan(0);
    for (let i = 0; i < 40; i++)
      for (const name of scenario.introduces(generateTask(scenario, "train", i).task.expected))
        expect(evalNames.has(name), name).toBe(false);
  });
}
