import { describe, expect, it } from "vitest";
import {
  expectRefusalHolds,
  playReference,
  replaceWrites,
  scoreEdited,
  tasksWhere,
  trainReferenceProblems,
} from "../../../test/support/family-checks.ts";
import { NAMESAKES } from "../jira-picks.ts";
import { generateTask } from "../tasks.ts";
import { COMMENT_POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

const doc = (...content: unknown[]) => ({
  type: "doc",
  version: 1,
  content: [{ type: "paragraph", content }],
});
const text = (t: string) => ({ type: "text", text: t });

describe("jira-comment-v1", () => {
  it("train tasks: the reference scores 1.0 with every call succeeding", () => {
    expect(trainReferenceProblems(scenario, 15)).toEqual({});
  });

  it("eval covers plain comments, namesake mentions and a refusal at level 3", () => {
    const tasks = Array.from({ length: 12 }, (_, i) => generateTask(scenario, "eval", i).task);
    expect(new Set(tasks.filter((t) => t.level === 3).map((t) => t.expected.variant))).toEqual(
      new Set(["plain", "mention", "refuse"]),
    );
    for (const t of tasks.filter((t) => t.expected.variant === "mention"))
      expect(NAMESAKES).toContain(t.expected.mentionName);
  });

  it("fails a comment with the right text that does not mention the person", () => {
    const index = tasksWhere(scenario, "eval", (e) => e.variant === "mention")[0]!;
    const { task } = playReference(scenario, "eval", index);
    const e = task.expected;
    const body = doc(text(e.text));
    const plain = scoreEdited(scenario, "eval", index, (calls) =>
      replaceWrites(calls, ["jira_add_comment"], {
        name: "jira_add_comment",
        arguments: { issueIdOrKey: e.issue.key, body },
      }),
    );
    // The text is right but nobody is mentioned.
    expect(plain.passed).toBe(false);
  });

  it("fails extra text, and any comment on a refusal task", () => {
    const index = tasksWhere(scenario, "eval", (e) => e.variant === "plain")[0]!;
    const { task } = playReference(scenario, "eval", index);
    const extra = scoreEdited(scenario, "eval", index, (calls) =>
      replaceWrites(calls, ["jira_add_comment"], {
        name: "jira_add_comment",
        arguments: {
          issueIdOrKey: task.expected.issue.key,
          body: doc(text(`${task.expected.text} Thanks!`)),
        },
      }),
    );
    expect(extra.passed).toBe(false);
    expect(extra.reward).toBeLessThan(1);

    expectRefusalHolds(
      scenario,
      (e) => e.variant === "refuse",
      () => ({ name: "jira_add_comment", arguments: { issueIdOrKey: "ENG-1", body: doc(text("x")) } }),
    );
  });

  it("draws comment texts from disjoint split pools", () => {
    const evalPool = new Set<string>(COMMENT_POOLS.eval);
    for (const t of COMMENT_POOLS.train) expect(evalPool.has(t)).toBe(false);
    for (let i = 0; i < 20; i++)
      expect(COMMENT_POOLS.train).toContain(generateTask(scenario, "train", i).task.expected.text);
  });
});
