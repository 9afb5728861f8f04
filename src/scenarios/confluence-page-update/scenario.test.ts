import { describe, expect, it } from "vitest";
import { passesState, playReference, referenceSuite } from "../../../test/support/reference-suite.ts";
import { generateTask } from "../tasks.ts";
import { SECTION_POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

describe("confluence-page-update-v1", () => {
  referenceSuite(scenario);

  it("draws sections from disjoint split pools", () => {
    const evalHeadings = new Set(SECTION_POOLS.eval.map(([h]) => h));
    const evalTexts = new Set(SECTION_POOLS.eval.map(([, p]) => p));
    for (const [h, p] of SECTION_POOLS.train) {
      expect(evalHeadings.has(h)).toBe(false);
      expect(evalTexts.has(p)).toBe(false);
    }
  });

  it("keeps the old body and bumps the version by one (the reference's update is checked, not trusted)", () => {
    const run = playReference(scenario, "eval", 5);
    const e = run.task.expected;
    const before = run.initial.get("pages", e.pageId!)!;
    const after = run.episode.site.get("pages", e.pageId!)!;
    expect(before.version.number).toBeGreaterThan(1);
    expect(after.version.number).toBe(before.version.number + 1);
    expect(after.body.value.startsWith(before.body.value)).toBe(true);
    expect(after.body.value).toContain(e.heading);
  });

  it("rejects a wrong end state: the section replacing the body, or the twin page updated", () => {
    const { task, site } = generateTask(scenario, "eval", 6);
    const page = site.get("pages", task.expected.pageId!)!;
    const replaced = site.fork();
    const section = `<h2>${task.expected.heading}</h2><p>${task.expected.paragraph}</p>`;
    replaced.put("pages", page.id, {
      ...page,
      body: { representation: "storage", value: section },
      version: { ...page.version, number: page.version.number + 1 },
    });
    expect(passesState(scenario, task, site, replaced)).toBe(false);
    const twin = [...site.values("pages")].find((p) => p.title === page.title && p.id !== page.id)!;
    const wrong = site.fork();
    wrong.put("pages", twin.id, { ...twin, version: { ...twin.version, number: twin.version.number + 1 } });
    expect(passesState(scenario, task, site, wrong)).toBe(false);
  });
});
