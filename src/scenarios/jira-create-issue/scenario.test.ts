import { describe, expect, it } from "vitest";
import {
  expectRefusalHolds,
  replaceWrites,
  scoreEdited,
  trainReferenceProblems,
} from "../../../test/support/family-checks.ts";
import { generateTask } from "../tasks.ts";
import { IDEA_POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });
const doc = (texts: string[]) => ({ type: "doc", version: 1, content: texts.map(paragraph) });

describe("jira-create-issue-v1", () => {
  it("train tasks: the reference scores 1.0 with every call succeeding", () => {
    expect(trainReferenceProblems(scenario, 15)).toEqual({});
  });

  it("level 3 finds the project through one of its issues, or refuses an issue type the project lacks", () => {
    const tasks = [8, 9, 10, 11].map((i) => generateTask(scenario, "eval", i).task);
    expect(new Set(tasks.map((t) => (t.expected.refuse ? "refuse" : t.expected.projectRef)))).toEqual(
      new Set(["issue", "refuse"]),
    );
    for (const t of tasks.filter((t) => !t.expected.refuse))
      expect(t.prompt).toContain(`holds the issue "${t.expected.anchorSummary}"`);
  });

  it("passes both paragraphs in one; fails a truncated description or another type", () => {
    const index = 5;
    const e = generateTask(scenario, "eval", index).task.expected;
    const fields = {
      project: { id: e.projectId },
      summary: e.summary,
      priority: { id: e.priorityId },
      labels: e.labels,
    };
    const create = (extra: object) => (calls: Parameters<typeof replaceWrites>[0]) =>
      replaceWrites(calls, ["jira_create_issue"], {
        name: "jira_create_issue",
        arguments: { fields: { ...fields, ...extra } },
      });
    const joined = scoreEdited(
      scenario,
      "eval",
      index,
      create({ issuetype: { id: e.issueTypeId }, description: doc([e.paragraphs.join(" ")]) }),
    );
    expect(joined.reward, joined.explanation).toBe(1);
    const truncated = scoreEdited(
      scenario,
      "eval",
      index,
      create({ issuetype: { id: e.issueTypeId }, description: doc(e.paragraphs.slice(0, 1)) }),
    );
    expect(truncated.passed).toBe(false);
    const other = e.issueTypeName === "Bug" ? "Task" : "Bug";
    const wrongType = scoreEdited(
      scenario,
      "eval",
      index,
      create({ issuetype: { name: other }, description: doc(e.paragraphs) }),
    );
    expect(wrongType.passed).toBe(false);
  });

  it("fails any creation on a refusal task", () => {
    expectRefusalHolds(
      scenario,
      (e) => e.refuse,
      ({ task }) => ({
        name: "jira_create_issue",
        arguments: {
          fields: {
            project: { id: task.expected.projectId },
            issuetype: { name: "Task" },
            summary: task.expected.summary,
          },
        },
      }),
    );
  });

  it("draws summaries from disjoint split pools", () => {
    const evalPool = new Set<string>(IDEA_POOLS.eval.map((i) => i[0]));
    for (const [summary] of IDEA_POOLS.train) expect(evalPool.has(summary)).toBe(false);
  });
});
