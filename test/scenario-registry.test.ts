/**
 * The scenario registry and its frozen eval splits: every scenario folder is registered, ids are unique
 * and versioned, each frozen split carries a valid content hash and is still what the generator
 * produces, and eval and train never share seeds or task-introduced names.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { frozenPath, hashTasks, loadEvalSplit, tasksFor } from "../src/scenarios/frozen.ts";
import { SCENARIOS } from "../src/scenarios/index.ts";
import { generateTask } from "../src/scenarios/tasks.ts";

const scenarioDir = new URL("../src/scenarios/", import.meta.url);

describe("scenario registry", () => {
  it("registers every scenario folder, with unique versioned ids", () => {
    const folders = readdirSync(scenarioDir, { withFileTypes: true }).filter(
      (d) => d.isDirectory() && d.name !== "eval-data",
    );
    const withScenario = folders.filter((d) =>
      readdirSync(new URL(`${d.name}/`, scenarioDir)).includes("scenario.ts"),
    );
    expect(SCENARIOS.length).toBe(withScenario.length);
    const ids = SCENARIOS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/-v\d+$/);
  });
});

describe.each(SCENARIOS.map((s) => [s.id, s] as const))("%s", (_id, scenario) => {
  it("has a frozen eval split of 12 tasks whose content hash checks out", () => {
    const frozen = loadEvalSplit(scenario);
    expect(frozen.tasks).toHaveLength(12);
    expect(hashTasks(frozen.tasks)).toBe(frozen.sha256);
    expect(JSON.parse(readFileSync(frozenPath(scenario.id), "utf8")).scenario).toBe(scenario.id);
  });

  it("still generates exactly the frozen eval tasks (else bump the version and refreeze)", () => {
    for (const task of loadEvalSplit(scenario).tasks) {
      expect(generateTask(scenario, "eval", task.index).task).toEqual(task);
    }
  });

  it("keeps train and eval disjoint in seeds and in task-introduced names", () => {
    const evalTasks = tasksFor(scenario, "eval");
    const train = tasksFor(scenario, "train", 150);
    const evalSeeds = new Set(evalTasks.map((t) => t.seed));
    expect(train.some((t) => evalSeeds.has(t.seed))).toBe(false);
    const names = (tasks: typeof train) =>
      new Set(tasks.flatMap((t) => scenario.introduces?.(t.expected) ?? []).map((n) => n.toLowerCase()));
    const evalNames = names(evalTasks);
    const overlap = [...names(train)].filter((n) => evalNames.has(n));
    expect(overlap).toEqual([]);
  });

  it("uses at least 4 different prompt phrasings over 30 train tasks and is deterministic", () => {
    const prompts = tasksFor(scenario, "train", 30).map((t) => t.prompt);
    const openings = new Set(prompts.map((p) => p.split(" ").slice(0, 2).join(" ")));
    expect(openings.size).toBeGreaterThanOrEqual(4);
    expect(tasksFor(scenario, "train", 30).map((t) => t.prompt)).toEqual(prompts);
  });
});
