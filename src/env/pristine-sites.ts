/**
 * The pristine site of each recent task, built from its seed once and then shared: an episode only ever
 * forks it (copy-on-write), never writes it, so the G samples of a task (pass@k in eval, a GRPO group,
 * the rollout bench's repeats) fork one site instead of each rebuilding it, and the reference outcome
 * the score needs is computed once per site (scenarios/reference-outcome.ts caches it by site).
 * Bounded: the 256 most recently used tasks are kept.
 */
import type { Site } from "../sandbox/site.ts";
import type { Scenario, Task } from "../scenarios/define-scenario.ts";
import { siteForTask } from "../scenarios/tasks.ts";

const MAX_SITES = 256;
const sites = new Map<string, Site>();

/** The task's pristine site (fork it, never write it). */
export function pristineSite<E>(scenario: Scenario<E>, task: Task<E>): Site {
  const key = `${scenario.id}\n${task.id}\n${task.seed}`;
  let site = sites.get(key);
  if (site) sites.delete(key);
  else site = siteForTask(scenario, task);
  sites.set(key, site);
  if (sites.size > MAX_SITES) sites.delete(sites.keys().next().value!);
  return site;
}
