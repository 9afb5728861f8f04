/**
 * Frozen eval splits: the 12 eval tasks of each scenario, generated once and committed as data
 * (`eval-data/<scenario-id>.json`) with a content hash, so that eval numbers stay comparable across
 * versions. A test checks the hash and that the generator still reproduces every frozen task.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { UsageError } from "../errors.ts";
import { stableStringify } from "../sandbox/stable-stringify.ts";
import type { Level, Scenario, Split, Task } from "./define-scenario.ts";
import { EVAL_TASKS, generateTask, levelFor, seedFor } from "./tasks.ts";

export interface FrozenSplit {
  scenario: string;
  split: "eval";
  /** sha256 of the canonical JSON of `tasks`. */
  sha256: string;
  tasks: Task[];
}

export const frozenPath = (scenarioId: string) => new URL(`./eval-data/${scenarioId}.json`, import.meta.url);

export function hashTasks(tasks: readonly Task[]): string {
  return createHash("sha256").update(stableStringify(tasks)).digest("hex");
}

/** Generates the eval split and writes it (used when a scenario is added or its version bumped). */
export function freezeEvalSplit(scenario: Scenario): FrozenSplit {
  const tasks = Array.from({ length: EVAL_TASKS }, (_, i) => generateTask(scenario, "eval", i).task);
  const frozen: FrozenSplit = { scenario: scenario.id, split: "eval", sha256: hashTasks(tasks), tasks };
  writeFileSync(frozenPath(scenario.id), `${JSON.stringify(frozen, null, 2)}\n`);
  return frozen;
}

export function loadEvalSplit(scenario: Scenario): FrozenSplit {
  const path = frozenPath(scenario.id);
  if (!existsSync(path))
    throw new UsageError(
      `No frozen eval split for ${scenario.id}; run: atlas-gym tasks --scenario ${scenario.id} --split eval --freeze`,
    );
  return JSON.parse(readFileSync(path, "utf8")) as FrozenSplit;
}

/** Tasks of a split: eval from the frozen data, train generated on the fly from `start`. */
export function tasksFor(scenario: Scenario, split: Split, n?: number, start = 0): Task[] {
  if (split === "eval")
    return loadEvalSplit(scenario).tasks.slice(start, n === undefined ? undefined : start + n);
  const count = n ?? 20;
  return Array.from(
    { length: count },
    (_, i) => generateTask(scenario, "train", start + i, seedFor("train", start + i)).task,
  );
}

/**
 * The split's first `n` tasks whose level is one of `levels` (in index order; train: 20 when `n` is
 * absent). A scenario with none of those levels is a UsageError.
 */
export function tasksAtLevels(
  scenario: Scenario,
  split: Split,
  levels: readonly Level[],
  n?: number,
): Task[] {
  const own = scenario.levels ?? [1, 2];
  if (!own.some((level) => levels.includes(level)))
    throw new UsageError(
      `${scenario.id} has no level ${levels.join(" or ")} tasks (its levels: ${own.join(", ")})`,
    );
  if (split === "eval")
    return tasksFor(scenario, split)
      .filter((t) => levels.includes(t.level))
      .slice(0, n);
  const indices: number[] = [];
  for (let i = 0; indices.length < (n ?? 20); i++)
    if (levels.includes(levelFor(split, i, own))) indices.push(i);
  return indices.map((i) => generateTask(scenario, split, i, seedFor(split, i)).task);
}
