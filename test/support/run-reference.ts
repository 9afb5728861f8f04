/**
 * Runs a scenario's reference solution directly on a generated task's site with the default tools (no
 * episode, no reward): what the expectation-only families test before the reward engine scores them.
 */

import { AGENT_ACCOUNT_ID } from "../../src/sandbox/fixtures/default-site.ts";
import type { Site } from "../../src/sandbox/site.ts";
import type { Scenario, Split, Task } from "../../src/scenarios/define-scenario.ts";
import { generateTask } from "../../src/scenarios/tasks.ts";
import { defaultTools } from "../../src/tools/catalogue.ts";
import { executeToolCall, type ToolCallResult } from "../../src/tools/execute-tool.ts";

export interface ReferenceRun<E> {
  task: Task<E>;
  /** The task's site before the run. */
  initial: Site;
  /** The site after the run. */
  site: Site;
  calls: ToolCallResult[];
  answer: string;
}

export function runReferenceOn<E>(scenario: Scenario<E>, split: Split, index: number): ReferenceRun<E> {
  const { task, site: initial } = generateTask(scenario, split, index);
  const site = initial.fork();
  const tools = new Map(scenario.tools.map((name) => [name, defaultTools().get(name)!]));
  const ctx = { baseUrl: "https://atlas-gym.atlassian.net", accountId: AGENT_ACCOUNT_ID };
  const calls: ToolCallResult[] = [];
  const solution = scenario.reference(task);
  let next = solution.next(undefined as unknown as ToolCallResult);
  while (!next.done) {
    const result = executeToolCall(site, tools, next.value, ctx);
    calls.push(result);
    next = solution.next(result);
  }
  return { task, initial, site, calls, answer: next.value };
}
