/**
 * What a workflow task holds (its `expected`): the composition it instantiates and, per step, the
 * family's own generated expected values, how it was generated (level and index), which earlier step's
 * record it targets (`bind`) and that record as it was on the generation site (`target`), so the
 * expectation and the reference can swap in the record each replay or episode makes (rebind.ts).
 */
import type { Level, Scenario, Task } from "../define-scenario.ts";
import { FAMILIES } from "../families.ts";
import { type MadeRecord, rebind } from "./rebind.ts";

export interface WorkflowStep {
  family: string;
  /** The level the family generated this step at (3 for a step that must be declined). */
  level: Level;
  /** The index the family's generator was given (it picks variants by it). */
  index: number;
  /** 0-based index of the earlier step whose created record this step targets. */
  bind?: number;
  /** With `bind`: that record on the site this step was generated on. */
  target?: MadeRecord;
  /** The step cannot be done (level 6): the final answer declines it. */
  declines?: boolean;
  expected: unknown;
}

export interface WorkflowExpected {
  /** The composition's id (catalogue.ts). */
  composition: string;
  steps: WorkflowStep[];
}

export function familyOf(id: string): Scenario {
  const family = FAMILIES.find((f) => f.id === id);
  if (!family) throw new Error(`Workflow step family ${id} is not registered`);
  return family;
}

/** The binding name of the record step `i` (0-based) creates: `step1.issue`. */
export const bindingName = (i: number, family: Scenario): string =>
  `step${i + 1}.${family.step?.produces?.kind ?? "record"}`;

/**
 * Step `i` as a task of its family, its expected values rebound to `made` (what each earlier step
 * created on the site it runs on; undefined for steps that create nothing).
 */
export function stepTask(
  task: Pick<Task<WorkflowExpected>, "id" | "split" | "seed" | "expected">,
  i: number,
  made: readonly (MadeRecord | undefined)[],
): Task {
  const step = task.expected.steps[i]!;
  const to = step.bind === undefined ? undefined : made[step.bind];
  if (step.bind !== undefined && (!to || !step.target))
    throw new Error(
      `${task.id} step ${i + 1}: step ${step.bind + 1} created no ${step.target?.table ?? "record"}`,
    );
  const expected = to && step.target ? rebind(step.expected, [{ from: step.target, to }]) : step.expected;
  return {
    id: `${task.id}#${i + 1}`,
    scenario: step.family,
    split: task.split,
    index: step.index,
    level: step.level,
    seed: task.seed,
    prompt: "",
    expected,
  };
}
