/**
 * defineWorkflow: a workflow family (its id contains `workflow`) over one scope of the catalogue. Its
 * tasks are compositions of the families (generate.ts), at levels 4/5/6; its tools are the union of the
 * tools of every family it composes; its expectation and reference are the steps' own, composed
 * (compose-workflow.ts); the names it introduces are its steps' names.
 */
import { TOOL_SET_NAMES } from "../../tools/aliases/tool-sets.ts";
import type { AliasSetName, AliasSolutions } from "../alias-solution.ts";
import { defineScenario, type Scenario, type Task } from "../define-scenario.ts";
import { compositions, type Scope } from "./catalogue.ts";
import { workflowExpectation, workflowReference, workflowSolution } from "./compose-workflow.ts";
import { DECLINABLE, generateWorkflow, introduced } from "./generate.ts";
import { familyOf, type WorkflowExpected } from "./workflow-task.ts";

/** Every family a scope's tasks may use as a step. */
export function scopeFamilies(scope: Scope): string[] {
  const ids = compositions(scope).flatMap((c) => c.steps.map((s) => s.family));
  return [...new Set([...ids, ...DECLINABLE[scope]])];
}

export function defineWorkflow(scope: Scope, id: string, description: string): Scenario<WorkflowExpected> {
  const families = scopeFamilies(scope).map(familyOf);
  const lookups = families.flatMap((f) => f.lookups ?? []);
  return defineScenario<WorkflowExpected>({
    id,
    description,
    tools: [...new Set(families.flatMap((f) => f.tools))],
    ...(lookups.length > 0 ? { lookups } : {}),
    levels: [4, 5, 6],
    generate: (ctx) => generateWorkflow(id, scope, ctx),
    expect: (task, site, ctx) => workflowExpectation(task, site, ctx),
    introduces: introduced,
    reference: (task) => workflowReference(task),
    aliasSolutions: aliasSolutionsOf(families),
  });
}

/** A set solves a workflow when it solves every family the workflow may use: the steps' solutions in order. */
function aliasSolutionsOf(families: readonly Scenario[]): AliasSolutions<WorkflowExpected> {
  return Object.fromEntries(
    TOOL_SET_NAMES.filter((set): set is AliasSetName => set !== "default")
      .filter((set) => families.every((f) => f.aliasSolutions?.[set] !== undefined))
      .map((set) => [set, (task: Task<WorkflowExpected>) => workflowSolution(task, set)]),
  );
}
