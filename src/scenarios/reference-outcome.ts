/**
 * The reference outcome: the diff the scenario's reference solution makes on a fork of a task's initial
 * site (deterministic, run once per initial site and cached). The reward takes from it what the API
 * sets when a field is omitted (a created record's unrequested fields) and what it changes alongside a
 * requested change (the resolution when entering Done): one source of truth, no hand-listed defaults.
 */
import { diff, type RecordChange } from "../sandbox/diff.ts";
import type { Site } from "../sandbox/site.ts";
import type { Scenario, Task } from "./define-scenario.ts";
import { runReference } from "./run-reference.ts";

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
  runReference(site, scenario.reference(task), baseUrl, `${scenario.id} task ${task.id}`);
  const changes = diff(initial, site);
  if (!cache.has(initial)) cache.set(initial, new Map());
  cache.get(initial)!.set(key, changes);
  return changes;
}
