/**
 * The reference outcome: the diff the scenario's reference solution makes on a fork of a task's initial
 * site (deterministic, run once per initial site and cached). The reward takes from it what the API
 * sets when a field is omitted (a created record's unrequested fields) and what it changes alongside a
 * requested change (the resolution when entering Done): one source of truth, no hand-listed defaults.
 */
import { diff, type RecordChange } from "../sandbox/diff.ts";
import { AGENT_ACCOUNT_ID } from "../sandbox/fixtures/default-site.ts";
import type { Site } from "../sandbox/site.ts";
import { defaultTools } from "../tools/catalogue.ts";
import { executeToolCall } from "../tools/execute-tool.ts";
import type { ToolCallResult } from "../tools/tool-call-result.ts";
import type { Scenario, Task } from "./define-scenario.ts";

const cache = new WeakMap<Site, Map<string, readonly RecordChange[]>>();

export function referenceChanges(
  scenario: Scenario<unknown>,
  task: Task<unknown>,
  initial: Site,
  baseUrl: string,
): readonly RecordChange[] {
  const key = `${task.id}#${task.seed}@${baseUrl}`;
  const known = cache.get(initial)?.get(key);
  if (known) return known;
  const site = initial.fork();
  const tools = defaultTools();
  const solution = scenario.reference(task);
  let next = solution.next(undefined as unknown as ToolCallResult);
  for (let steps = 0; !next.done; steps++) {
    if (steps > 100) throw new Error(`${scenario.id}: the reference solution of ${task.id} does not end`);
    next = solution.next(executeToolCall(site, tools, next.value, { baseUrl, accountId: AGENT_ACCOUNT_ID }));
  }
  const changes = diff(initial, site);
  if (!cache.has(initial)) cache.set(initial, new Map());
  cache.get(initial)!.set(key, changes);
  return changes;
}
