import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FIVE_STEPS, fakeWorkflow } from "../../../test/support/fake-workflow.ts";
import { taskJson } from "./tasks.ts";

const BIN = fileURLToPath(new URL("../../../bin/atlas-gym", import.meta.url));

/** `atlas-gym tasks --scenario <id> --n <n> --json`, one parsed task per line. */
const tasksJson = (scenario: string, n: number) =>
  execFileSync(BIN, ["tasks", "--scenario", scenario, "--n", String(n), "--json"], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));

describe("atlas-gym tasks --json", () => {
  it("prints one snake_case task per line, named by task_id as in episodes.jsonl", () => {
    const tasks = tasksJson("jira-transition-v1", 2);
    expect(tasks.map((t) => t.task_id)).toEqual(["jira-transition-v1/eval/0", "jira-transition-v1/eval/1"]);
    for (const task of tasks) {
      expect(task).not.toHaveProperty("id");
      expect(Object.keys(task)).toEqual([
        "task_id",
        "scenario",
        "split",
        "index",
        "level",
        "seed",
        "prompt",
        "expected",
      ]);
    }
  });
});

describe("atlas-gym tasks of a workflow family", () => {
  it("lists its tasks, and --json shows each task's steps: the family of each step, in order", () => {
    const tasks = tasksJson("workflow-jira-v1", 3);
    expect(tasks.map((t) => t.task_id)).toEqual([0, 1, 2].map((i) => `workflow-jira-v1/eval/${i}`));
    for (const task of tasks) {
      expect(task.steps.length).toBeGreaterThanOrEqual(2);
      expect(task.steps.every((id: string) => /^jira-[a-z-]+-v\d+$/.test(id))).toBe(true);
    }
    const text = execFileSync(BIN, ["tasks", "--scenario", "workflow-jira-v1", "--n", "1"], {
      encoding: "utf8",
    });
    expect(text.split("\n")[0]).toContain(`steps ${tasks[0].steps.join(" > ")}`);
  });
});

describe("tasks --json of a workflow task", () => {
  it("shows its steps: the family of each step, in order", () => {
    const json = JSON.parse(JSON.stringify(taskJson(fakeWorkflow().task)));
    expect(json.steps).toEqual([...FIVE_STEPS]);
    expect(json.task_id).toBe("workflow-fake-v1/eval/0");
  });
});

describe("atlas-gym tasks into a reader that stops early", () => {
  it("ends quietly when the pipe closes (no EPIPE stack trace)", () => {
    const run = spawnSync("bash", ["-c", `set -o pipefail; "${BIN}" tasks --scenario all | head -n 1`], {
      encoding: "utf8",
    });
    expect(run.stdout.split("\n")[0]).toMatch(/^jira-transition-v1\/eval\/0 /);
    expect(run.stderr).not.toMatch(/EPIPE|Error/);
    expect(run.status).toBe(0);
  });
});
