import { describe, expect, it } from "vitest";
import { passesState, playReference, referenceSuite } from "../../../test/support/reference-suite.ts";
import { generateTask } from "../tasks.ts";
import { THEME_POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

describe("confluence-page-tree-v1", () => {
  referenceSuite(scenario);

  it("draws themes from disjoint split pools", () => {
    const evalThemes = new Set<string>(THEME_POOLS.eval);
    for (const t of THEME_POOLS.train) expect(evalThemes.has(t)).toBe(false);
  });

  it("creates the children under the new parent in the requested order", () => {
    const run = playReference(scenario, "eval", 9);
    const parent = [...run.episode.site.values("pages")].find((p) => p.title === run.task.expected.title)!;
    const children = [...run.episode.site.values("pages")]
      .filter((p) => p.parentId === parent.id)
      .sort((a, b) => a.position - b.position)
      .map((p) => p.title);
    expect(children).toEqual(run.task.expected.children);
    expect(children.length).toBeGreaterThanOrEqual(4);
  });

  it("rejects children in another order or under the anchor", () => {
    const { task, site } = generateTask(scenario, "eval", 4);
    const run = playReference(scenario, "eval", 4);
    expect(passesState(scenario, task, site, run.episode.site)).toBe(true);
    const kids = [...run.episode.site.values("pages")].filter((p) =>
      task.expected.children.includes(p.title),
    );
    const swapped = run.episode.site.fork();
    swapped.put("pages", kids[0]!.id, { ...kids[0]!, position: kids[1]!.position });
    swapped.put("pages", kids[1]!.id, { ...kids[1]!, position: kids[0]!.position });
    expect(passesState(scenario, task, site, swapped)).toBe(false);
    const misplaced = run.episode.site.fork();
    misplaced.put("pages", kids[0]!.id, { ...kids[0]!, parentId: task.expected.anchorId });
    expect(passesState(scenario, task, site, misplaced)).toBe(false);
  });
});
