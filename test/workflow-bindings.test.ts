/**
 * Bindings resolve on every one of the first 600 train tasks of the workflow families (150 each): the
 * composed expectation's created records (`as: "stepN.issue"`, ...) each match a record the composed
 * reference created on the task's site, and that reference scores 1.0. The frozen eval tasks are covered
 * with the probes (reward-probes, scenario-invariants); this is the train generator's side.
 */
import { describe, expect, it } from "vitest";
import { runReference as playReference } from "../src/agent/scripted/replay.ts";
import { createEpisode } from "../src/env/episode.ts";
import { resolveBindings } from "../src/reward/bindings.ts";
import { diff } from "../src/sandbox/diff.ts";
import { DEFAULT_BASE_URL } from "../src/sandbox/fixtures/default-site.ts";
import { tasksFor } from "../src/scenarios/frozen.ts";
import { SCENARIOS } from "../src/scenarios/index.ts";
import { runReference } from "../src/scenarios/run-reference.ts";
import { siteForTask } from "../src/scenarios/tasks.ts";

const WORKFLOWS = SCENARIOS.filter((s) => s.id.includes("workflow"));
const PER_FAMILY = 600 / WORKFLOWS.length;

it("covers four workflow families, 600 train tasks in all", () => {
  expect(WORKFLOWS.map((s) => s.id).sort()).toEqual([
    "workflow-confluence-v1",
    "workflow-cross-product-v1",
    "workflow-heldout-v1",
    "workflow-jira-v1",
  ]);
});

describe.each(WORKFLOWS.map((s) => [s.id, s] as const))("%s", (_, scenario) => {
  it(`resolves every binding of its first ${PER_FAMILY} train tasks to a record the reference created`, {
    timeout: 600_000,
  }, () => {
    let bindings = 0;
    for (const task of tasksFor(scenario, "train", PER_FAMILY)) {
      const site = siteForTask(scenario, task);
      const x = scenario.expect(task, site, { baseUrl: DEFAULT_BASE_URL });
      const after = site.fork();
      runReference(after, scenario.reference(task), DEFAULT_BASE_URL, task.id);
      const { resolved } = resolveBindings(x, diff(site, after));
      for (const e of x.entities)
        if (e.kind === "create" && e.as) {
          expect(resolved.get(e.as)?.kind, `${task.id} ${e.as}`).toBe("created");
          bindings++;
        }
      if (task.index % 25 === 0) {
        const episode = createEpisode(scenario, task);
        playReference(episode);
        expect(episode.score().reward, task.id).toBe(1);
      }
    }
    expect(bindings).toBeGreaterThan(PER_FAMILY / 2);
  });
});
