/**
 * The scenario registry and its frozen eval splits: every scenario folder is registered, ids are unique
 * and versioned, each frozen split carries a valid content hash and is still what the generator
 * produces, and eval and train never share seeds or task-introduced names.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { frozenPath, hashTasks, loadEvalSplit, tasksFor } from "../src/scenarios/frozen.ts";
import { HELD_OUT, SCENARIOS, selectScenarios } from "../src/scenarios/index.ts";
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

describe("held-out families", () => {
  it("are registered, and split the registry with the in-family set", () => {
    const ids = SCENARIOS.map((s) => s.id);
    for (const id of HELD_OUT) expect(ids).toContain(id);
    const heldOut = selectScenarios("heldout").map((s) => s.id);
    const inFamily = selectScenarios("in-family").map((s) => s.id);
    expect(heldOut).toEqual(ids.filter((id) => HELD_OUT.includes(id)));
    expect([...inFamily, ...heldOut].sort()).toEqual([...ids].sort());
    expect(inFamily.some((id) => HELD_OUT.includes(id))).toBe(false);
    expect(selectScenarios(" all ").length).toBe(ids.length);
    expect(selectScenarios(`${ids[0]}, ${ids[1]}`).map((s) => s.id)).toEqual(ids.slice(0, 2));
    expect(() => selectScenarios(",")).toThrow(/No scenario named/);
    expect(() => selectScenarios("nope-v1")).toThrow(/nope-v1/);
  });

  it("take the workflow families as any other: all of them in `all`, the held-out compositions apart", () => {
    const ids = (spec: string) => selectScenarios(spec).map((s) => s.id);
    const flows = ids("all").filter((id) => id.startsWith("workflow-"));
    expect(flows.sort()).toEqual(
      [
        "workflow-confluence-v1",
        "workflow-cross-product-v1",
        "workflow-heldout-v1",
        "workflow-jira-v1",
      ].sort(),
    );
    expect(ids("in-family").filter((id) => id.startsWith("workflow-"))).not.toContain("workflow-heldout-v1");
    expect(ids("in-family")).toEqual(
      expect.arrayContaining(["workflow-jira-v1", "workflow-cross-product-v1"]),
    );
    expect(ids("heldout")).toContain("workflow-heldout-v1");
  });

  it("are left out of every training config; the GRPO recipes train on the whole in-family set", () => {
    const dir = new URL("../configs/", import.meta.url);
    const inFamily = selectScenarios("in-family").map((s) => s.id);
    const files = readdirSync(dir).filter((f) => f.endsWith(".yaml"));
    expect(files.filter((f) => f.startsWith("qwen")).length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(new URL(file, dir), "utf8");
      const listed = [...text.matchAll(/^ {2}- ([a-z0-9-]+-v\d+)\s*$/gm)].map((m) => m[1]!);
      expect(listed.length, file).toBeGreaterThan(0);
      for (const id of listed) expect(inFamily, `${file}: ${id}`).toContain(id);
      if (file.startsWith("qwen")) expect([...listed].sort(), file).toEqual([...inFamily].sort());
    }
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
