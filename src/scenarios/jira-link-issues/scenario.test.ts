import { describe, expect, it } from "vitest";
import {
  expectRefusalHolds,
  replaceWrites,
  scoreEdited,
  trainReferenceProblems,
} from "../../../test/support/family-checks.ts";
import { generateTask } from "../tasks.ts";
import scenario from "./scenario.ts";

describe("jira-link-issues-v1", () => {
  it("train tasks: the reference scores 1.0 with every call succeeding", () => {
    expect(trainReferenceProblems(scenario, 15)).toEqual({});
  });

  it("level 2 uses the inward phrasing, and only level 3 has refusals", () => {
    const tasks = Array.from({ length: 12 }, (_, i) => generateTask(scenario, "eval", i).task);
    for (const t of tasks.filter((t) => t.level === 2)) expect(t.expected.verb).toMatch(/^is /);
    const refusals = tasks.filter((t) => t.expected.refuse);
    expect(refusals.length).toBeGreaterThan(0);
    for (const t of refusals) expect(t.level).toBe(3);
  });

  it("passes the link by ids and type id, fails it backwards or of another type", () => {
    const index = 4;
    const e = generateTask(scenario, "eval", index).task.expected;
    const link =
      (type: object, inward: string, outward: string) => (calls: Parameters<typeof replaceWrites>[0]) =>
        replaceWrites(calls, ["jira_link_issues"], {
          name: "jira_link_issues",
          arguments: { type, inwardIssue: { id: inward }, outwardIssue: { id: outward } },
        });
    const byIds = scoreEdited(
      scenario,
      "eval",
      index,
      link({ id: e.typeId }, e.inwardIssueId!, e.outwardIssueId!),
    );
    expect(byIds.reward).toBe(1);
    const backwards = scoreEdited(
      scenario,
      "eval",
      index,
      link({ id: e.typeId }, e.outwardIssueId!, e.inwardIssueId!),
    );
    expect(backwards.passed).toBe(false);
    expect(backwards.reward).toBeLessThan(0.5);
    const relates = scoreEdited(
      scenario,
      "eval",
      index,
      link({ name: "Relates" }, e.inwardIssueId!, e.outwardIssueId!),
    );
    expect(relates.passed).toBe(false);
  });

  it("fails any link on a refusal task", () => {
    expectRefusalHolds(
      scenario,
      (e) => e.refuse,
      ({ task }) => ({
        name: "jira_link_issues",
        arguments: {
          type: { name: "Relates" },
          inwardIssue: { id: task.expected.first.id },
          outwardIssue: { id: task.expected.second.id },
        },
      }),
    );
  });
});
