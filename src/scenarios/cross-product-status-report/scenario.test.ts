import { describe, expect, it } from "vitest";
import { passesState, playReference, referenceSuite } from "../../../test/support/reference-suite.ts";
import { EVAL_TASKS, generateTask } from "../tasks.ts";
import scenario from "./scenario.ts";

describe("cross-product-status-report-v1", () => {
  referenceSuite(scenario);

  it("reports at least one issue per task, and an unassigned or namesake case somewhere in the eval split", () => {
    const tasks = [...Array(EVAL_TASKS).keys()].map((i) => generateTask(scenario, "eval", i).task.expected);
    for (const e of tasks) expect(e.rows.length).toBeGreaterThan(0);
    const level2 = tasks.slice(4, 8);
    expect(
      level2.some((e) =>
        ["Alex Chen", "Alexa Chen", "Sam Rivera", "Samantha Rivera", "Jordan Lee", "Jordan Leigh"].includes(
          e.assignee!,
        ),
      ),
    ).toBe(true);
  });

  it("rejects a table with a row missing, rows out of order, or the table hidden in a comment", () => {
    const index = [...Array(8).keys()].find(
      (i) => generateTask(scenario, "eval", i).task.expected.rows.length >= 2,
    )!;
    const { task, site } = generateTask(scenario, "eval", index);
    const run = playReference(scenario, "eval", index);
    expect(passesState(scenario, task, site, run.episode.site)).toBe(true);
    const page = [...run.episode.site.values("pages")].find((p) => p.title === task.expected.title)!;
    const rows = [...page.body.value.matchAll(/<tr>.*?<\/tr>/g)].map((m) => m[0]);
    const variants = [rows.slice(0, -1).join(""), [rows[0], ...rows.slice(1).reverse()].join("")].map(
      (r) => `<table><tbody>${r}</tbody></table>`,
    );
    variants.push(`<p>See below.</p><!-- ${page.body.value} -->`);
    for (const value of variants) {
      const wrong = run.episode.site.fork();
      wrong.put("pages", page.id, { ...page, body: { representation: "storage", value } });
      expect(passesState(scenario, task, site, wrong), value).toBe(false);
    }
  });
});
