/**
 * The turn limit scales with the task: a 5-step workflow (its composed budget) gets more turns than a
 * 1-step task, its reference runs to the end under its own limit and is cut off under the 1-step one,
 * and a limit the user gives wins.
 */
import { describe, expect, it } from "vitest";
import { FIVE_STEPS, fakeWorkflow } from "../../test/support/fake-workflow.ts";
import { createEpisode } from "../env/episode.ts";
import { tasksFor } from "../scenarios/frozen.ts";
import { findScenario } from "../scenarios/index.ts";
import { createPolicy } from "./providers/index.ts";
import { runEpisode } from "./rollout.ts";
import { turnLimit } from "./turn-limit.ts";

const single = () => {
  const scenario = findScenario(FIVE_STEPS[0]);
  return createEpisode(scenario, tasksFor(scenario, "eval", 1)[0]!);
};
const workflow = () => {
  const { scenario, task, site } = fakeWorkflow();
  return createEpisode(scenario, task, { initialSite: site });
};

describe("turnLimit", () => {
  it("gives a 5-step task a larger limit than a 1-step one: its call budget + 1", () => {
    const one = single().expectation;
    const five = workflow().expectation;
    expect(five.steps).toHaveLength(5);
    expect(turnLimit(five)).toBe(five.budget + 1);
    expect(turnLimit(one)).toBe(one.budget + 1);
    expect(turnLimit(five)).toBeGreaterThan(turnLimit(one));
  });

  it("lets a user-given limit win, and refuses one that is not a positive integer", () => {
    expect(turnLimit({ budget: 30 }, 4)).toBe(4);
    expect(turnLimit({ budget: 30 }, null)).toBe(31);
    expect(() => turnLimit({ budget: 30 }, 0)).toThrow(/positive integer, got 0/);
    expect(() => turnLimit({ budget: 30 }, 2.5)).toThrow(RangeError);
  });

  it("runs a 5-step reference to the end under its own limit; a 1-step task's limit cuts it off", async () => {
    const full = await runEpisode(workflow(), createPolicy("policy:reference"));
    expect(full).toMatchObject({
      terminated: true,
      truncated: false,
      maxTurns: workflow().expectation.budget + 1,
    });
    expect(full.steps).toEqual([...FIVE_STEPS]);
    expect(full.score.reward).toBe(1);
    const oneStepLimit = turnLimit(single().expectation);
    expect(full.turns.length).toBeGreaterThan(oneStepLimit);
    const cut = await runEpisode(workflow(), createPolicy("policy:reference"), { maxTurns: oneStepLimit });
    expect(cut).toMatchObject({
      terminated: false,
      truncated: true,
      truncation: "max_turns",
      maxTurns: oneStepLimit,
    });
    expect(cut.turns).toHaveLength(oneStepLimit);
    // A truncated episode is scored on its end state: the steps done before the cut hold, the rest not.
    const held = cut.score.progress!.steps.map((s) => s.holds);
    expect(held[0]).toBe(true);
    expect(held.at(-1)).toBe(false);
    expect(cut.score.progress!.rate).toBeGreaterThan(0);
    expect(cut.score.progress!.rate).toBeLessThan(1);
    expect(cut.score.passed).toBe(false);
    expect(cut.score.explanation).toMatch(/R1 \+0\.140\/0\.140 s1/);
  });
});
