/**
 * The invariant suite, over every scenario × eval task (Gymnasium-style, parametrised over the
 * registry): the reference scores exactly 1.0 and passes; noop scores ≤ 0.1; every failure policy scores
 * strictly below the reference and its explanation names the expected violation. On a task that must be
 * declined (level 3, `refuse`), noop declines without looking (at most 0.1, no R2), and a failure
 * policy either behaves like the reference (writes nothing, passes) or fails.
 */
import { describe, expect, it } from "vitest";
import { SCRIPTED_POLICIES } from "../src/agent/scripted/policies.ts";
import { createEpisode } from "../src/env/episode.ts";
import { DEFAULT_BASE_URL } from "../src/sandbox/fixtures/default-site.ts";
import { createRandom } from "../src/sandbox/random.ts";
import { tasksFor } from "../src/scenarios/frozen.ts";
import { SCENARIOS } from "../src/scenarios/index.ts";
import { siteForTask } from "../src/scenarios/tasks.ts";

const cases = SCENARIOS.flatMap((scenario) =>
  tasksFor(scenario, "eval").map((task) => [task.id, scenario, task] as const),
);

describe.each(cases)("%s", (_id, scenario, task) => {
  const play = (name: string) => {
    const policy = SCRIPTED_POLICIES.find((p) => p.name === name)!;
    const episode = createEpisode(scenario, task);
    policy.play(episode, createRandom(`${task.id}:${name}`));
    return { episode, score: episode.score() };
  };

  it("reference scores exactly 1.0, passes the state check and stays within the budget", () => {
    const { episode, score } = play("reference");
    expect(score.explanation).toMatch(/^reward 1\.000/);
    expect(score.reward).toBe(1);
    expect(score.passed).toBe(true);
    expect(episode.calls.length).toBeLessThanOrEqual(episode.expectation.budget);
  });

  const declines = createEpisode(scenario, task).expectation.refuse !== undefined;

  it(
    declines
      ? "noop declines without looking: at most 0.1, not passed, no R2 points"
      : "noop scores at most 0.1 and fails the state check",
    () => {
      const { score } = play("noop");
      if (declines) {
        expect(score.reward).toBeLessThanOrEqual(0.1);
        expect(score.passed).toBe(false);
        expect(score.components.filter((c) => c.group === "R2").every((c) => c.points === 0)).toBe(true);
        return;
      }
      expect(score.reward).toBeLessThanOrEqual(0.1);
      expect(score.passed).toBe(false);
      expect(score.violations.map((v) => v.code)).toContain("missing_mutation");
    },
  );

  // Policies that perturb the first write say nothing about a task that must be refused (its reference
  // writes nothing, so they replay it unchanged); a refusal is tested by noop, read-only, over-budget and
  // random, and each scenario's own tests make the careless write.
  const refusal = scenario.expect(task, siteForTask(scenario, task), { baseUrl: DEFAULT_BASE_URL }).refuse;
  const PERTURB_WRITE = ["hallucinate", "drop-field", "duplicate", "skip-validate"];
  it.each(
    SCRIPTED_POLICIES.filter(
      (p) => p.name !== "reference" && p.name !== "noop" && !(refusal && PERTURB_WRITE.includes(p.name)),
    ).map((p) => [p.name, p] as const),
  )(
    "%s scores below the reference (unless it truly solved the task) and names its failure",
    (name, policy) => {
      const { episode, score } = play(name);
      if (declines) {
        const wrote = episode.calls.some((c) => c.ok && c.effect === "write");
        if (wrote) expect(score.passed, score.explanation).toBe(false);
        else expect(score.passed || score.reward < 1, score.explanation).toBe(true);
        return;
      }
      // A random policy may stumble on a correct solution; it must then also pass the state check.
      if (name === "random" || name === "borrowed-args")
        expect(score.passed || score.reward < 1, score.explanation).toBe(true);
      else expect(score.reward).toBeLessThan(1);
      if (refusal && name === "read-only") {
        // The reference of a refusal writes nothing, so read-only replays no call: a guess, like noop.
        expect(score.reward).toBeLessThanOrEqual(0.1);
        expect(score.passed).toBe(false);
        return;
      }
      if (policy.expectedViolations.length > 0) {
        const codes = score.violations.map((v) => v.code);
        expect(
          codes.some((c) => policy.expectedViolations.includes(c)),
          `${name}: ${score.explanation}`,
        ).toBe(true);
      }
      if (name === "skip-validate") {
        // A workflow judges R2 per step ("step 1: validate before mutating"): the first writing step loses it.
        const validate = score.components.filter((c) =>
          /^(step \d+: )?validate before mutating$/.test(c.label),
        );
        expect(validate.some((c) => c.points === 0)).toBe(true);
      }
    },
  );
});
