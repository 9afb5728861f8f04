/**
 * A workflow task's Expectation and reference: the steps' expectations composed (composeExpectation: the
 * union, bindings for created records, derived budget and points), each declared on the site the earlier
 * steps' references leave; and the steps' references in order, each given the records the earlier ones
 * created on the episode's site (the ids and keys the site returned then), answers joined into one.
 */
import { composeExpectation } from "../../reward/compose-expectation.ts";
import type { Expectation } from "../../reward/expectation.ts";
import type { Site } from "../../sandbox/site.ts";
import { type ToolSetName, toolSet } from "../../tools/aliases/tool-sets.ts";
import type { ToolCallRequest } from "../../tools/tool-call-result.ts";
import { type Answer, aliasSolution } from "../alias-solution.ts";
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

/**
 * The steps' solutions in order through one tool set (the references for `default`, the families' alias
 * solutions otherwise), each given what the earlier steps created on the episode's site. A step's
 * record is read from the answer to the set's create tool, named from the call, so a client that answers
 * with only `ok` and `body` (MCP, an alias solution's driver) drives it as an episode does.
 */
export function* workflowSolution(
  task: Task<WorkflowExpected>,
  set: ToolSetName = "default",
): Generator<ToolCallRequest, string, Answer> {
  const tools = toolSet(set);
  const made: (MadeRecord | undefined)[] = [];
  const answers: string[] = [];
  for (let i = 0; i < task.expected.steps.length; i++) {
    const step = task.expected.steps[i]!;
    const family = familyOf(step.family);
    const own = stepTask(task, i, made);
    const solution: Generator<ToolCallRequest, string, Answer> =
      set === "default"
        ? (family.reference(own) as unknown as Generator<ToolCallRequest, string, Answer>)
        : aliasSolution(family, set, own)!;
    const results: { ok: boolean; operationId: string | null; body: unknown }[] = [];
    let next = solution.next(undefined as unknown as Answer);
    while (!next.done) {
      const call = next.value;
      const answer: Answer = yield call;
      results.push({
        ok: answer.ok,
        body: answer.body,
        operationId: tools.get(call.name)?.operation.operationId ?? null,
      });
      next = solution.next(answer);
    }
    answers.push(next.value);
    const table = family.step?.produces?.table;
    made.push(table && !step.declines ? madeBy(results, table) : undefined);
  }
  return answers.join(" ");
}

/** The workflow's reference: its solution through atlas-gym's own catalogue. */
export const workflowReference = (task: Task<WorkflowExpected>): ReferenceSolution =>
  workflowSolution(task) as unknown as ReferenceSolution;
