/**
 * Test support: a fake workflow task that runs (not a stored record): independent steps of real
 * families on one initial site (tasks of one split and index share their seed, hence their site), its
 * expectation composed from the steps' (composeExpectation: budgets add up, progress per step), its
 * reference the steps' references in order. It stands in for the workflow families in tests of the
 * run-time side (turn limits, truncation, records) without depending on their generator.
 */

import { composeExpectation } from "../../src/reward/compose-expectation.ts";
import type { Site } from "../../src/sandbox/site.ts";
import type { Scenario, Task } from "../../src/scenarios/define-scenario.ts";
import { findScenario } from "../../src/scenarios/index.ts";
import { generateTask } from "../../src/scenarios/tasks.ts";

/** Five families whose eval tasks 0 write different records or fields of one site. */
export const FIVE_STEPS = [
  "jira-transition-v1",
  "jira-comment-v1",
  "confluence-page-label-v1",
  "confluence-page-create-v1",
  "jira-create-issue-v1",
] as const;

export const FAKE_WORKFLOW_ID = "workflow-fake-v1";

export function fakeWorkflow(
  families: readonly string[] = FIVE_STEPS,
  index = 0,
): { scenario: Scenario; task: Task; site: Site } {
  const steps = families.map((id) => {
    const scenario = findScenario(id);
    return { scenario, ...generateTask(scenario, "eval", index) };
  });
  const first = steps[0]!;
  const prompt = steps.map((s) => s.task.prompt).join("\n\nThen: ");
  const scenario: Scenario = {
    ...first.scenario,
    id: FAKE_WORKFLOW_ID,
    tools: [...new Set(steps.flatMap((s) => s.scenario.tools))],
    levels: [4],
    // The site comes from the seed (shared by the steps' tasks); regenerating gives the same task.
    generate: () => ({ prompt, expected: null, steps: families.slice() }),
    expect: (_task, site, ctx) =>
      composeExpectation(
        steps.map((s) => ({ scenario: s.scenario.id, expectation: s.scenario.expect(s.task, site, ctx) })),
        FAKE_WORKFLOW_ID,
      ),
    introduces: () => [],
    reference: function* () {
      const answers: string[] = [];
      for (const s of steps) answers.push(yield* s.scenario.reference(s.task));
      return answers.join(" ");
    },
  };
  delete scenario.aliasSolutions;
  delete scenario.step;
  const task: Task = {
    id: `${FAKE_WORKFLOW_ID}/eval/${index}`,
    scenario: FAKE_WORKFLOW_ID,
    split: "eval",
    index,
    level: 4,
    seed: first.task.seed,
    prompt,
    expected: null,
    steps: steps.map((s) => s.scenario.id),
  };
  return { scenario, task, site: first.site };
}
