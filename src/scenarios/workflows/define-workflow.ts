/**
 * defineWorkflow: a workflow family (its id contains `workflow`) over one scope of the catalogue. Its
 * tasks are compositions of the families (generate.ts), at levels 4/5/6; its tools are the union of the
 * tools of every family it composes; its expectation and reference are the steps' own, composed
 * (compose-workflow.ts); the names it introduces are its steps' names.
 */
import { defineScenario, type Scenario } from "../define-scenario.ts";
import { compositions, type Scope } from "./catalogue.ts";
import { workflowExpectation, workflowReference } from "./compose-workflow.ts";
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
  });
}
