/**
 * A workflow task's Expectation and reference: the steps' expectations composed (composeExpectation: the
 * union, bindings for created records, derived budget and points), each declared on the site the earlier
 * steps' references leave; and the steps' references in order, each given the records the earlier ones
 * created on the episode's site (the ids and keys the site returned then), answers joined into one.
 */
import { composeExpectation } from "../../reward/compose-expectation.ts";
import type { Expectation } from "../../reward/expectation.ts";
import type { Site } from "../../sandbox/site.ts";
import type { ToolCallResult } from "../../tools/tool-call-result.ts";
import type { ReferenceSolution, RewardContext, Task } from "../define-scenario.ts";
import { type MadeRecord, madeBy } from "./rebind.ts";
import { replaySteps } from "./replay.ts";
import { bindingName, familyOf, stepTask, type WorkflowExpected } from "./workflow-task.ts";

export function workflowExpectation(
  task: Pick<Task<WorkflowExpected>, "id" | "split" | "seed" | "expected">,
  site: Site,
  ctx: RewardContext,
): Expectation {
  const replayed = replaySteps(task, site.fork(), ctx);
  return composeExpectation(
    replayed.map((r, i) => {
      const family = familyOf(task.expected.steps[i]!.family);
      return {
        scenario: family.id,
        expectation: r.expectation,
        ...(r.made ? { produces: { as: bindingName(i, family), ...r.made } } : {}),
      };
    }),
    `workflow task ${task.id}`,
  );
}

export function* workflowReference(task: Task<WorkflowExpected>): ReferenceSolution {
  const made: (MadeRecord | undefined)[] = [];
  const answers: string[] = [];
  for (let i = 0; i < task.expected.steps.length; i++) {
    const step = task.expected.steps[i]!;
    const family = familyOf(step.family);
    const solution = family.reference(stepTask(task, i, made));
    const results: ToolCallResult[] = [];
    let next = solution.next(undefined as unknown as ToolCallResult);
    while (!next.done) {
      const result: ToolCallResult = yield next.value;
      results.push(result);
      next = solution.next(result);
    }
    answers.push(next.value);
    const table = family.step?.produces?.table;
    made.push(table && !step.declines ? madeBy(results, table) : undefined);
  }
  return answers.join(" ");
}
