/**
 * Playing a workflow's steps forward on a site: each step's expectation as its family declares it on the
 * site the earlier steps' references leave, then that step's reference, and the record it created. The
 * composed expectation (compose-workflow.ts) and the generator (a bound step is generated on the site
 * after the earlier steps) both use it.
 */
import type { Expectation } from "../../reward/expectation.ts";
import type { Site } from "../../sandbox/site.ts";
import type { RewardContext, Task } from "../define-scenario.ts";
import { runReference } from "../run-reference.ts";
import { type MadeRecord, madeBy } from "./rebind.ts";
import { familyOf, stepTask, type WorkflowExpected } from "./workflow-task.ts";

export interface ReplayedStep {
  task: Task;
  expectation: Expectation;
  /** The record the step's reference created (producing steps only). */
  made?: MadeRecord;
  calls: number;
}

/** Replays the first `count` steps of `task` on `site` (which it changes). */
export function replaySteps(
  task: Pick<Task<WorkflowExpected>, "id" | "split" | "seed" | "expected">,
  site: Site,
  ctx: RewardContext,
  count = task.expected.steps.length,
): ReplayedStep[] {
  const out: ReplayedStep[] = [];
  for (let i = 0; i < count; i++) {
    const family = familyOf(task.expected.steps[i]!.family);
    const t = stepTask(
      task,
      i,
      out.map((s) => s.made),
    );
    const expectation = family.expect(t, site, ctx);
    const where = `${task.id} step ${i + 1} (${family.id})`;
    const run = runReference(site, family.reference(t), ctx.baseUrl, where);
    const produces = family.step?.produces;
    const made =
      produces && expectation.refuse === undefined ? madeBy(run.results, produces.table) : undefined;
    if (produces && expectation.refuse === undefined && !made)
      throw new Error(`${where}: its reference created no record in ${produces.table}`);
    out.push({ task: t, expectation, calls: run.results.length, ...(made ? { made } : {}) });
  }
  return out;
}
