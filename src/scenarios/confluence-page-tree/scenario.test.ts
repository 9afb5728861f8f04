import { describe, expect, it } from "vitest";
import { expectationProblems } from "../../../test/support/expectation-holds.ts";
import { referenceSuite } from "../../../test/support/reference-suite.ts";
import { runReferenceOn } from "../../../test/support/run-reference.ts";
import { generateTask } from "../tasks.ts";
import { THEME_POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

const ctx = { baseUrl: "https://atlas-gym.atlassian.net" };

describe("confluence-page-tree-v1", () => {
  referenceSuite(scenario);

  it("draws themes from disjoint split pools", () => {
    const evalThemes = new Set<string>(THEME_POOLS.eval);
    for (const t of THEME_POOLS.train) expect(evalThemes.has(t)).toBe(false);
  });

  it("creates the children under the new parent in the requested order", () => {
    const run = runReferenceOn(scenario, "eval", 9);
    const parent = [...run.site.values("pages")].find((p) => p.title === run.task.expected.title)!;
    const children = [...run.site.values("pages")]
      .filter((p) => p.parentId === parent.id)
      .sort((a, b) => a.position - b.position)
      .map((p) => p.title);
    expect(children).toEqual(run.task.expected.children);
    expect(children.length).toBeGreaterThanOrEqual(4);
  });

  it("rejects children in another order or under the anchor", () => {
    const { task, site } = generateTask(scenario, "eval", 4);
    const expectation = scenario.expect!(task, site, ctx);
    const run = runReferenceOn(scenario, "eval", 4);
    expect(expectationProblems(expectation, site, run.site)).toEqual([]);
    const kids = [...run.site.values("pages")].filter((p) => task.expected.children.includes(p.title));
    const swapped = run.site.fork();
    swapped.put("pages", kids[0]!.id, { ...kids[0]!, position: kids[1]!.position });
    swapped.put("pages", kids[1]!.id, { ...kids[1]!, position: kids[0]!.position });
    expect(expectationProblems(expectation, site, swapped).length).toBeGreaterThan(0);
    const misplaced = run.site.fork();
    misplaced.put("pages", kids[0]!.id, { ...kids[0]!, parentId: task.expected.anchorId });
    expect(expectationProblems(expectation, site, misplaced).length).toBeGreaterThan(0);
  });
});
