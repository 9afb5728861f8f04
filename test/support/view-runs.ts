/**
 * Test support: two small eval runs for the view's tests and bench, written by the real `evaluate`
 * with scripted policies — A solves every task (the reference), B solves the even-numbered tasks and
 * drops a required field on the odd ones — so comparing them flips the odd tasks from passed to failed.
 */
import { join } from "node:path";
import { createScriptedPolicy } from "../../src/agent/scripted/policy-adapter.ts";
import type { TaskPolicy } from "../../src/agent/types.ts";
import { evaluate } from "../../src/eval/evaluate.ts";

export const VIEW_SCENARIOS = ["jira-transition-v1", "jira-create-issue-v1"];

function oddTasksFail(): TaskPolicy {
  const reference = createScriptedPolicy("reference");
  const dropField = createScriptedPolicy("drop-field");
  return {
    name: "policy:odd-fail",
    readsTask: true,
    next: (messages, tools, ctx) =>
      (ctx.episode.task.index % 2 === 1 ? dropField : reference).next(messages, tools, ctx),
  };
}

const config = (model: string) => ({
  model,
  scenarios: VIEW_SCENARIOS,
  split: "eval" as const,
  n: 3,
  k: 1,
  concurrency: 2,
  seed: 0,
  reward: "paper" as const,
  maxTurns: 30,
});

/** Writes runs `<root>/run-a` and `<root>/run-b`; returns their directories. */
export async function writeViewRuns(root: string): Promise<{ a: string; b: string }> {
  const a = join(root, "run-a");
  const b = join(root, "run-b");
  const now = () => new Date("2026-01-02T03:04:05Z");
  await evaluate({
    dir: a,
    policy: createScriptedPolicy("reference"),
    config: config("policy:reference"),
    now,
  });
  await evaluate({ dir: b, policy: oddTasksFail(), config: config("policy:odd-fail"), now });
  return { a, b };
}
