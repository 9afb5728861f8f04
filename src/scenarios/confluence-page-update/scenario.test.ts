import { describe, expect, it } from "vitest";
import { expectationProblems } from "../../../test/support/expectation-holds.ts";
import { runReferenceOn } from "../../../test/support/run-reference.ts";
import { EVAL_TASKS, generateTask } from "../tasks.ts";
import { SECTION_POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

const ctx = { baseUrl: "https://atlas-gym.atlassian.net" };
const indices = (split: "eval" | "train", n: number) => [...Array(n).keys()].map((i) => [split, i] as const);

describe("confluence-page-update-v1", () => {
  it("draws sections from disjoint split pools", () => {
    const evalHeadings = new Set(SECTION_POOLS.eval.map(([h]) => h));
    const evalTexts = new Set(SECTION_POOLS.eval.map(([, p]) => p));
    for (const [h, p] of SECTION_POOLS.train) {
      expect(evalHeadings.has(h)).toBe(false);
      expect(evalTexts.has(p)).toBe(false);
    }
  });

  it.each([...indices("eval", EVAL_TASKS), ...indices("train", 12)])(
    "the reference solves %s task %i with every call ok and the expected end state",
    (split, index) => {
      const run = runReferenceOn(scenario, split, index);
      const expectation = scenario.expect!(run.task, run.initial, ctx);
      expect(
        run.calls.every((c) => c.ok),
        JSON.stringify(run.calls.filter((c) => !c.ok)),
      ).toBe(true);
      expect(run.calls.length).toBeLessThanOrEqual(expectation.budget);
      expect(expectationProblems(expectation, run.initial, run.site)).toEqual([]);
      const { points } = expectation;
      expect(points.fields + points.validate + points.verify).toBe(1);
      if (expectation.refuse) {
        expect(run.task.level).toBe(3);
        expect(run.calls.some((c) => c.effect === "write")).toBe(false);
        expect(run.answer).toMatch(/did not change/);
      }
    },
  );

  it("keeps the old body and bumps the version by one (the reference's update is checked, not trusted)", () => {
    const run = runReferenceOn(scenario, "eval", 5);
    const e = run.task.expected;
    const before = run.initial.get("pages", e.pageId!)!;
    const after = run.site.get("pages", e.pageId!)!;
    expect(before.version.number).toBeGreaterThan(1);
    expect(after.version.number).toBe(before.version.number + 1);
    expect(after.body.value.startsWith(before.body.value)).toBe(true);
    expect(after.body.value).toContain(e.heading);
  });

  it("rejects a wrong end state: the section replacing the body, or the twin page updated", () => {
    const { task, site } = generateTask(scenario, "eval", 6);
    const expectation = scenario.expect!(task, site, ctx);
    const page = site.get("pages", task.expected.pageId!)!;
    const replaced = site.fork();
    replaced.put("pages", page.id, {
      ...page,
      body: {
        representation: "storage",
        value: `<h2>${task.expected.heading}</h2><p>${task.expected.paragraph}</p>`,
      },
      version: { ...page.version, number: page.version.number + 1 },
    });
    expect(expectationProblems(expectation, site, replaced).length).toBeGreaterThan(0);
    const twin = [...site.values("pages")].find((p) => p.title === page.title && p.id !== page.id)!;
    const wrong = site.fork();
    wrong.put("pages", twin.id, { ...twin, version: { ...twin.version, number: twin.version.number + 1 } });
    expect(expectationProblems(expectation, site, wrong).length).toBeGreaterThan(0);
  });

  it("spreads the eval split over levels 1-3 and declines at least one level-3 task", () => {
    const tasks = [...Array(EVAL_TASKS).keys()].map((i) => generateTask(scenario, "eval", i).task);
    expect(tasks.map((t) => t.level)).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
    const refusals = tasks.filter((t) => t.expected.refuse);
    expect(refusals.length).toBeGreaterThanOrEqual(1);
    expect(refusals.length).toBeLessThan(4);
  });
});
