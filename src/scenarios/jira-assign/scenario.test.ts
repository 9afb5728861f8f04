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
import scenario from "./scenario.ts";

const PAIRS: Record<string, string> = {
  "Alex Chen": "Alexa Chen",
  "Alexa Chen": "Alex Chen",
  "Sam Rivera": "Samantha Rivera",
  "Samantha Rivera": "Sam Rivera",
  "Jordan Lee": "Jordan Leigh",
  "Jordan Leigh": "Jordan Lee",
};

describe("jira-assign-v1", () => {
  it("train tasks: the reference scores 1.0 with every call succeeding", () => {
    expect(trainReferenceProblems(scenario, 15)).toEqual({});
  });

  it("spreads level 3 over hand-over, unassign and refusal; level 2 names namesakes by summary", () => {
    const tasks = Array.from({ length: 12 }, (_, i) => generateTask(scenario, "eval", i));
    expect(new Set(tasks.filter((t) => t.task.level === 3).map((t) => t.task.expected.variant))).toEqual(
      new Set(["assign", "unassign", "refuse"]),
    );
    for (const { task, site } of tasks.filter((t) => t.task.level === 2)) {
      expect(task.expected.issue.kind).toBe("summary");
      expect(NAMESAKES).toContain(task.expected.assigneeName);
      expect(site.get("issues", task.expected.issueId)!.assigneeId).not.toBe(task.expected.assigneeAccountId);
    }
  });

  it("fails the namesake, and any assignment on a refusal task", () => {
    const index = tasksWhere(
      scenario,
      "eval",
      (e) => e.variant === "assign" && e.issue.kind === "summary",
    )[0]!;
    const { task, episode } = playReference(scenario, "eval", index);
    const namesake = [...episode.site.values("users")].find(
      (u) => u.displayName === PAIRS[task.expected.assigneeName!],
    )!;
    const wrong = scoreEdited(scenario, "eval", index, (calls) =>
      replaceWrites(calls, ["jira_assign_issue"], {
        name: "jira_assign_issue",
        arguments: { issueIdOrKey: task.expected.issue.key, accountId: namesake.accountId },
      }),
    );
    expect(wrong.passed).toBe(false);
    expect(wrong.reward).toBeLessThan(0.5);

    const refused = expectRefusalHolds(
      scenario,
      (e) => e.variant === "refuse",
      ({ episode, task: t }) => {
        const current = episode.site.get("issues", t.expected.issueId)!.assigneeId;
        const someone = [...episode.site.values("users")].find((u) => u.active && u.accountId !== current)!;
        return {
          name: "jira_assign_issue",
          arguments: { issueIdOrKey: t.expected.issue.key, accountId: someone.accountId },
        };
      },
    );
    expect(refused.episode.finalMessage).toMatch(/no one named/);
  });

  it("introduces absent names from disjoint split pools", () => {
    const names = (split: "eval" | "train", n: number) =>
      new Set(
        Array.from({ length: n }, (_, i) => generateTask(scenario, split, i).task).flatMap((t) =>
          scenario.introduces(t.expected),
        ),
      );
    const train = names("train", 30);
    expect(train.size).toBeGreaterThan(0);
    for (const name of names("eval", 12)) expect(train.has(name)).toBe(false);
  });
});
