/**
 * The checks every expectation-only family runs on its reference before the reward engine scores it:
 * on every eval task and 12 train tasks, each call succeeds, the calls fit the budget, the end state
 * holds the expectation (and nothing else changed), points sum to 1, and a task to decline is declined
 * without a write. Also: the eval split spreads over levels 1–3 with one or two tasks to decline.
 */
import { expect, it } from "vitest";
import type { Scenario } from "../../src/scenarios/define-scenario.ts";
import { EVAL_TASKS, generateTask } from "../../src/scenarios/tasks.ts";
import { expectationProblems } from "./expectation-holds.ts";
import { runReferenceOn } from "./run-reference.ts";

const ctx = { baseUrl: "https://atlas-gym.atlassian.net" };
const indices = (split: "eval" | "train", n: number) => [...Array(n).keys()].map((i) => [split, i] as const);

export function referenceSuite<E>(scenario: Scenario<E>): void {
  it.each([...indices("eval", EVAL_TASKS), ...indices("train", 12)])(
    "the reference solves %s task %i with every call ok and the expected end state",
    (split, index) => {
      const run = runReferenceOn(scenario, split, index);
      const expectation = scenario.expect!(run.task, run.initial, ctx);
      expect(run.calls.filter((c) => !c.ok)).toEqual([]);
      expect(run.calls.length).toBeLessThanOrEqual(expectation.budget);
      expect(expectationProblems(expectation, run.initial, run.site)).toEqual([]);
      const { points } = expectation;
      expect(points.fields + points.validate + points.verify).toBe(1);
      expect(JSON.parse(JSON.stringify(expectation))).toEqual(expectation);
      if (expectation.refuse) {
        expect(run.task.level).toBe(3);
        expect(expectation.entities).toEqual([]);
        expect(run.calls.some((c) => c.effect === "write")).toBe(false);
        expect(run.answer).toMatch(/did not change/);
      } else expect(expectation.entities.length).toBeGreaterThan(0);
    },
  );

  it("spreads the eval split over levels 1-3 with one task in four of level 3 to decline", () => {
    const tasks = [...Array(EVAL_TASKS).keys()].map((i) => generateTask(scenario, "eval", i));
    expect(tasks.map((t) => t.task.level)).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
    const declined = tasks.filter((t) => scenario.expect!(t.task, t.site, ctx).refuse);
    expect(declined.map((t) => t.task.index)).toEqual([11]);
  });

  it("introduces names from disjoint split pools", () => {
    const evalNames = new Set(
      [...Array(EVAL_TASKS).keys()].flatMap((i) =>
        scenario.introduces!(generateTask(scenario, "eval", i).task.expected),
      ),
    );
    for (let i = 0; i < 40; i++)
      for (const name of scenario.introduces!(generateTask(scenario, "train", i).task.expected))
        expect(evalNames.has(name), name).toBe(false);
  });
}
