import { describe, expect, it } from "vitest";
import { passesState, playReference, referenceSuite } from "../../../test/support/reference-suite.ts";
import { PAGE_LABELS } from "../../sandbox/fixtures/pools.ts";
import { generateTask } from "../tasks.ts";
import { CLEANUP_LABEL_POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

describe("confluence-label-cleanup-v1", () => {
  referenceSuite(scenario);

  it("draws labels from disjoint split pools that the fixture does not use", () => {
    const evalPool = new Set<string>(CLEANUP_LABEL_POOLS.eval);
    for (const l of [...CLEANUP_LABEL_POOLS.train, ...PAGE_LABELS]) expect(evalPool.has(l)).toBe(false);
  });

  it("leaves the label on other spaces' pages and the look-alike label in the space", () => {
    const run = playReference(scenario, "eval", 5);
    const { label, spaceId } = run.task.expected;
    const left = [...run.episode.site.values("pageLabels")].filter((l) => l.name.startsWith(label));
    expect(left.some((l) => l.name === label)).toBe(true);
    expect(left.some((l) => l.name === `${label}-v2`)).toBe(true);
    for (const l of left)
      if (l.name === label) expect(run.episode.site.get("pages", l.pageId)!.spaceId).not.toBe(spaceId);
  });

  it("rejects removing it from one page too few, or from a page of another space as well", () => {
    const { task, site } = generateTask(scenario, "eval", 9);
    const run = playReference(scenario, "eval", 9);
    const { label, pageIds } = task.expected;
    const tooFew = run.episode.site.fork();
    tooFew.put(
      "pageLabels",
      `${pageIds[0]}:global:${label}`,
      site.get("pageLabels", `${pageIds[0]}:global:${label}`)!,
    );
    expect(passesState(scenario, task, site, tooFew)).toBe(false);
    const outside = [...site.values("pageLabels")].find(
      (l) => l.name === label && !pageIds.includes(l.pageId),
    )!;
    const tooMany = run.episode.site.fork();
    tooMany.remove("pageLabels", `${outside.pageId}:global:${label}`);
    expect(passesState(scenario, task, site, tooMany)).toBe(false);
  });
});
