/**
 * Workflow tasks end to end (a sample kept small for the suite): composed expectations survive a JSON
 * round trip with the same score, and the reference's bindings resolve to the records it created, on
 * every frozen eval task and on the first train tasks of each workflow family.
 */
import { describe, expect, it } from "vitest";
import { createEpisode } from "../../env/episode.ts";
import { resolveBindings } from "../../reward/bindings.ts";
import { diff } from "../../sandbox/diff.ts";
import { DEFAULT_BASE_URL } from "../../sandbox/fixtures/default-site.ts";
import { tasksFor } from "../frozen.ts";
import { findScenario } from "../index.ts";
import { runReference } from "../run-reference.ts";
import { siteForTask } from "../tasks.ts";

const IDS = [
  "workflow-jira-v1",
  "workflow-confluence-v1",
  "workflow-cross-product-v1",
  "workflow-heldout-v1",
];

describe.each(IDS)("%s", (id) => {
  const scenario = findScenario(id);
  const tasks = [
    ...tasksFor(scenario, "eval").filter((_, i) => i % 4 === 0),
    ...tasksFor(scenario, "train", 6),
  ];

  it("composes expectations that round-trip as JSON with an equal score", () => {
    for (const task of tasks) {
      const site = siteForTask(scenario, task);
      const x = scenario.expect(task, site, { baseUrl: DEFAULT_BASE_URL });
      const copy = JSON.parse(JSON.stringify(x));
      expect(copy).toEqual(x);
      const a = createEpisode(scenario, task);
      const b = createEpisode({ ...scenario, expect: () => copy }, task);
      for (const episode of [a, b]) {
        const solution = scenario.reference(task);
        let next = solution.next(undefined as never);
        while (!next.done) next = solution.next(episode.step(next.value));
        episode.finish(next.value);
      }
      expect(b.score()).toEqual(a.score());
      expect(a.score().reward, task.id).toBe(1);
    }
  });

  it("resolves every binding to a record the reference created", () => {
    for (const task of tasks) {
      const site = siteForTask(scenario, task);
      const x = scenario.expect(task, site, { baseUrl: DEFAULT_BASE_URL });
      const after = site.fork();
      runReference(after, scenario.reference(task), DEFAULT_BASE_URL, task.id);
      const { resolved } = resolveBindings(x, diff(site, after));
      const names = x.entities.flatMap((e) => (e.kind === "create" && e.as ? [e.as] : []));
      for (const name of names) expect(resolved.get(name)?.kind, `${task.id} ${name}`).toBe("created");
    }
  });
});
