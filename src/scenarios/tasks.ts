/**
 * Tasks: concrete instances of a scenario. A task is fully determined by (scenario, split, index, seed):
 * its site is built from the seed and the scenario's generator runs on it with a random stream derived
 * from all four, so the same task always has the same prompt, expected values and site.
 */
import { createSite } from "../sandbox/fixtures/default-site.ts";
import { createRandom } from "../sandbox/random.ts";
import type { Site } from "../sandbox/site.ts";
import type { Level, Scenario, Split, Task } from "./define-scenario.ts";

/** Eval tasks per scenario, as in the paper. */
export const EVAL_TASKS = 12;

/** Eval and train seeds come from disjoint ranges. */
const SEED_BASE: Record<Split, number> = { eval: 1_000, train: 1_000_000 };

/**
 * Two-level families (the paper's five): eval tasks 0–7 are level 1, 8–11 level 2; every third train task
 * is level 2. Three-level families: eval tasks 0–3, 4–7, 8–11 are levels 1, 2, 3; train cycles 1, 2, 3.
 */
export function levelFor(split: Split, index: number, levels: readonly Level[] = [1, 2]): Level {
  if (levels.length === 3) return split === "eval" ? levels[Math.floor(index / 4)]! : levels[index % 3]!;
  if (split === "eval") return index < 8 ? 1 : 2;
  return index % 3 === 2 ? 2 : 1;
}

/** The seed of a task; `offset` lets users draw another train stream without overlapping eval. */
export function seedFor(split: Split, index: number, offset = 0): number {
  if (!Number.isInteger(index) || index < 0)
    throw new RangeError(`Task index must be a non-negative integer, got ${index}`);
  if (split === "eval" && index >= EVAL_TASKS)
    throw new RangeError(`The eval split has ${EVAL_TASKS} tasks (0–${EVAL_TASKS - 1}), got ${index}`);
  return SEED_BASE[split] + index + (split === "train" ? offset * 100_000 : 0);
}

/** Generates a task and its site. */
export function generateTask<E>(
  scenario: Scenario<E>,
  split: Split,
  index: number,
  seed = seedFor(split, index),
): { task: Task<E>; site: Site } {
  const level = levelFor(split, index, scenario.levels);
  const site = createSite({ seed });
  const random = createRandom(`${scenario.id}:${split}:${index}:${seed}`);
  const { prompt, expected, steps } = scenario.generate({ site, random, level, split, index });
  return {
    task: {
      id: `${scenario.id}/${split}/${index}`,
      scenario: scenario.id,
      split,
      index,
      level,
      seed,
      prompt,
      expected,
      ...(steps ? { steps } : {}),
    },
    site,
  };
}

/** Rebuilds the site of a known (e.g. frozen) task, and checks the generator still produces that task. */
export function siteForTask<E>(scenario: Scenario<E>, task: Task<E>): Site {
  const { task: again, site } = generateTask(scenario, task.split, task.index, task.seed);
  if (again.prompt !== task.prompt || JSON.stringify(again.expected) !== JSON.stringify(task.expected)) {
    throw new Error(
      `Task ${task.id} no longer matches its scenario's generator; regenerate the frozen split and bump the scenario version.`,
    );
  }
  return site;
}
