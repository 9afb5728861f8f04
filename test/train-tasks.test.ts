/**
 * Every family's train generator yields tasks that can be scored: the first 600 train tasks of each build
 * their site and a valid expectation (points that sum to 1, a field for every point), as `export`, the env
 * server and the training recipes need them to.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_BASE_URL } from "../src/sandbox/fixtures/default-site.ts";
import { SCENARIOS } from "../src/scenarios/index.ts";
import { generateTask } from "../src/scenarios/tasks.ts";

const TRAIN_TASKS = 600;

describe("train tasks", () => {
  it.each(SCENARIOS.map((s) => [s.id, s] as const))(
    "%s: the first 600 build a valid expectation",
    (_, scenario) => {
      for (let index = 0; index < TRAIN_TASKS; index++) {
        const { task, site } = generateTask(scenario, "train", index);
        const build = () => scenario.expect(task, site, { baseUrl: DEFAULT_BASE_URL });
        expect(build, task.id).not.toThrow();
      }
    },
  );
});
