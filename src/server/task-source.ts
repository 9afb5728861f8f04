/**
 * Where the env server gets tasks: the scenario registry (scenarios/index.ts) and its splits
 * (scenarios/frozen.ts), seen through the env server's errors. It resolves a session request
 * (`{scenario, split, index, seed?}` or `{task_id}`) to a task and its pristine site. Eval tasks come from
 * the frozen splits (read once); train tasks are generated. The pristine site of each recent task is kept
 * (LRU), so the G sessions of a GRPO group share one site by copy-on-write forks instead of each
 * rebuilding it.
 */

import { pristineSite } from "../env/pristine-sites.ts";
import { ScenarioNotFoundError } from "../errors.ts";
import type { Site } from "../sandbox/site.ts";
import type { Scenario, Split, Task } from "../scenarios/define-scenario.ts";
import { loadEvalSplit, tasksFor } from "../scenarios/frozen.ts";
import { findScenario, SCENARIOS } from "../scenarios/index.ts";
import { EVAL_TASKS, generateTask, seedFor } from "../scenarios/tasks.ts";
import { EnvRequestError } from "./errors.ts";

export interface TaskRequest {
  scenario?: string;
  split?: string;
  index?: number;
  seed?: number;
  task_id?: string;
}

export interface ResolvedTask {
  scenario: Scenario;
  task: Task;
  /** The task's pristine site: fork it, never write it. */
  site: Site;
}

export interface TaskSource {
  readonly scenarios: readonly Scenario[];
  scenario(id: string): Scenario;
  /** A split's tasks: eval from the frozen data; train generated from `start`. */
  list(scenario: Scenario, split: Split, n: number | undefined, start: number): Task[];
  resolve(request: TaskRequest): ResolvedTask;
}

const MAX_SEED = 2 ** 32 - 1;
const bad = (message: string) => new EnvRequestError(400, "invalid_request", message);

export function createTaskSource(cacheSize = 256): TaskSource {
  const frozen = new Map<string, Task[]>();
  const sites = new Map<string, { task: Task; site: Site }>();

  const evalTasks = (scenario: Scenario) => {
    let tasks = frozen.get(scenario.id);
    if (!tasks) {
      tasks = loadEvalSplit(scenario).tasks;
      frozen.set(scenario.id, tasks);
    }
    return tasks;
  };

  const source: TaskSource = {
    scenarios: SCENARIOS,
    scenario(id) {
      try {
        return findScenario(id);
      } catch (error) {
        if (error instanceof ScenarioNotFoundError)
          throw new EnvRequestError(404, "scenario_not_found", error.message);
        throw error;
      }
    },
    list(scenario, split, n, start) {
      if (split === "eval") return evalTasks(scenario).slice(start, n === undefined ? undefined : start + n);
      return tasksFor(scenario, split, n, start);
    },
    resolve(request) {
      const { scenario, split, index, seed } = normalise(request, source);
      const key = `${scenario.id}/${split}/${index}/${seed ?? ""}`;
      let entry = sites.get(key);
      if (entry) sites.delete(key);
      else if (split === "eval") {
        const task = evalTasks(scenario)[index]!;
        if (seed !== undefined && seed !== task.seed)
          throw bad(
            `Eval tasks are frozen: ${task.id} has seed ${task.seed}, got seed ${seed}. Omit seed for eval tasks.`,
          );
        entry = { task, site: pristineSite(scenario, task) };
      } else {
        entry = generateTask(scenario, "train", index, seed ?? seedFor("train", index));
      }
      sites.set(key, entry);
      if (sites.size > cacheSize) sites.delete(sites.keys().next().value!);
      return { scenario, task: entry.task, site: entry.site };
    },
  };
  return source;
}

/** Checks a session request and brings both forms to (scenario, split, index, seed). */
function normalise(
  request: TaskRequest,
  source: TaskSource,
): { scenario: Scenario; split: Split; index: number; seed: number | undefined } {
  let { scenario: scenarioId, split, index } = request;
  if (request.task_id !== undefined) {
    const match = /^([a-z0-9-]+)\/(eval|train)\/(\d+)$/.exec(request.task_id);
    if (!match)
      throw bad(
        `task_id "${request.task_id}" is not of the form <scenario>/<split>/<index>, e.g. jira-transition-v1/eval/0`,
      );
    const [, id, s, i] = match as unknown as [string, string, Split, string];
    const conflicts = [
      scenarioId !== undefined && scenarioId !== id && `scenario "${scenarioId}"`,
      split !== undefined && split !== s && `split "${split}"`,
      index !== undefined && index !== Number(i) && `index ${index}`,
    ].filter(Boolean);
    if (conflicts.length > 0)
      throw bad(`task_id "${request.task_id}" disagrees with ${conflicts.join(" and ")} in the same request`);
    [scenarioId, split, index] = [id, s, Number(i)];
  }
  if (scenarioId === undefined || split === undefined || index === undefined)
    throw bad("Send either {scenario, split, index, seed?} or {task_id} to open a session");
  if (split !== "eval" && split !== "train") throw bad(`split must be "eval" or "train", got "${split}"`);
  if (!Number.isSafeInteger(index) || index < 0)
    throw bad(`index must be a non-negative integer, got ${JSON.stringify(index)}`);
  if (split === "eval" && index >= EVAL_TASKS)
    throw bad(`The eval split has ${EVAL_TASKS} tasks (index 0–${EVAL_TASKS - 1}), got index ${index}`);
  const seed = request.seed;
  if (seed !== undefined && (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED))
    throw bad(`seed must be an integer between 0 and ${MAX_SEED}, got ${JSON.stringify(seed)}`);
  return { scenario: source.scenario(scenarioId), split, index, seed };
}
