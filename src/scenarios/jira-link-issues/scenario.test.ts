import { describe, expect, it } from "vitest";
import { call } from "../../../test/support/call.ts";
import { playReference, referenceProblems, unmet } from "../../../test/support/expectation-check.ts";
import { generateTask } from "../tasks.ts";
import scenario from "./scenario.ts";

describe("jira-link-issues-v1", () => {
  it.each(Array.from({ length: 12 }, (_, i) => i))(
    "eval task %i: the reference meets its expectation",
    (i) => {
      expect(referenceProblems(scenario, "eval", i)).toEqual([]);
    },
  );

  it("train tasks: the reference meets its expectation", () => {
    for (let i = 0; i < 15; i++) expect(referenceProblems(scenario, "train", i), `train ${i}`).toEqual([]);
  });

  it("level 2 uses the inward phrasing, and level 3 has refusals for link types the site lacks", () => {
    const tasks = Array.from({ length: 12 }, (_, i) => generateTask(scenario, "eval", i).task);
    for (const t of tasks.filter((t) => t.level === 2)) expect(t.expected.verb).toMatch(/^is /);
    const refusals = tasks.filter((t) => t.expected.refuse);
    expect(refusals.length).toBeGreaterThan(0);
    for (const t of refusals) expect(t.level).toBe(3);
  });

  it("the link in the wrong direction, of another type, or on a refusal task misses the expectation", () => {
    const index = [4, 5, 6, 7][0]!;
    const played = playReference(scenario, "eval", index);
    const { expected: e } = played.task;
    const wrong = [
      {
        type: { id: e.typeId },
        inwardIssue: { id: e.outwardIssueId },
        outwardIssue: { id: e.inwardIssueId },
      },
      {
        type: { name: "Relates" },
        inwardIssue: { id: e.inwardIssueId },
        outwardIssue: { id: e.outwardIssueId },
      },
    ];
    for (const body of wrong) {
      const { site: initial } = generateTask(scenario, "eval", index);
      const site = initial.fork();
      expect(call(site, "linkIssues", {}, body).status).toBe(201);
      expect(unmet(played.expectation, initial, site).length).toBeGreaterThan(0);
    }
    const refusal = Array.from({ length: 12 }, (_, i) => i).find(
      (i) => generateTask(scenario, "eval", i).task.expected.refuse,
    )!;
    const refused = playReference(scenario, "eval", refusal);
    expect(refused.calls.every((c) => c.effect === "read")).toBe(true);
    const r = refused.task.expected;
    call(
      refused.site,
      "linkIssues",
      {},
      { type: { name: "Relates" }, inwardIssue: { id: r.first.id }, outwardIssue: { id: r.second.id } },
    );
    expect(unmet(refused.expectation, refused.initial, refused.site).join()).toMatch(/collateral/);
  });
});
