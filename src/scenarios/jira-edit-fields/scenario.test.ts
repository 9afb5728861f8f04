import { describe, expect, it } from "vitest";
import {
  expectRefusalHolds,
  replaceWrites,
  scoreEdited,
  tasksWhere,
  trainReferenceProblems,
} from "../../../test/support/family-checks.ts";
import { ISSUE_LABELS } from "../../sandbox/fixtures/pools.ts";
import { generateTask } from "../tasks.ts";
import { LABEL_POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

describe("jira-edit-fields-v1", () => {
  it("train tasks: the reference scores 1.0 with every call succeeding", () => {
    expect(trainReferenceProblems(scenario, 15)).toEqual({});
  });

  it("level 2 removes a label the issue has; only level 3 refuses a missing priority", () => {
    for (let i = 4; i < 12; i++) {
      const { task, site } = generateTask(scenario, "eval", i);
      if (task.expected.refuse) expect(task.level).toBe(3);
      else expect(site.get("issues", task.expected.issueId)!.labels).toContain(task.expected.removeLabel);
    }
    expect(tasksWhere(scenario, "eval", (e) => e.refuse).length).toBeGreaterThan(0);
  });

  it("passes the labels set outright; fails a kept label or an edited summary", () => {
    const index = 5;
    const e = generateTask(scenario, "eval", index).task.expected;
    const edit = (args: object) => (calls: Parameters<typeof replaceWrites>[0]) =>
      replaceWrites(calls, ["jira_edit_issue"], {
        name: "jira_edit_issue",
        arguments: { issueIdOrKey: e.issue.key, ...args },
      });
    const base = { priority: { id: e.priorityId }, duedate: e.duedate };
    expect(scoreEdited(scenario, "eval", index, edit({ fields: { ...base, labels: e.labels } })).reward).toBe(
      1,
    );
    const kept = scoreEdited(
      scenario,
      "eval",
      index,
      edit({ fields: { ...base, labels: [...e.labels, e.removeLabel] } }),
    );
    expect(kept.passed).toBe(false);
    const summary = scoreEdited(
      scenario,
      "eval",
      index,
      edit({ fields: { ...base, labels: e.labels, summary: "Changed" } }),
    );
    expect(summary.passed).toBe(false);
    expect(summary.violations.map((v) => v.code)).toContain("collateral_change");
  });

  it("fails any edit on a refusal task", () => {
    expectRefusalHolds(
      scenario,
      (e) => e.refuse,
      ({ task }) => ({
        name: "jira_edit_issue",
        arguments: { issueIdOrKey: task.expected.issue.key, fields: { priority: { name: "Highest" } } },
      }),
    );
  });

  it("draws new labels from disjoint split pools that the fixture does not use", () => {
    const evalPool = new Set<string>(LABEL_POOLS.eval);
    for (const l of [...LABEL_POOLS.train, ...ISSUE_LABELS]) expect(evalPool.has(l)).toBe(false);
  });
});
