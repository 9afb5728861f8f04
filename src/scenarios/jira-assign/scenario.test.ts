import { describe, expect, it } from "vitest";
import { call } from "../../../test/support/call.ts";
import { playReference, referenceProblems, unmet } from "../../../test/support/expectation-check.ts";
import { NAMESAKES } from "../jira-picks.ts";
import { generateTask } from "../tasks.ts";
import scenario from "./scenario.ts";

describe("jira-assign-v1", () => {
  it.each(Array.from({ length: 12 }, (_, i) => i))(
    "eval task %i: the reference meets its expectation",
    (i) => {
      expect(referenceProblems(scenario, "eval", i)).toEqual([]);
    },
  );

  it("train tasks: the reference meets its expectation", () => {
    for (let i = 0; i < 15; i++) expect(referenceProblems(scenario, "train", i), `train ${i}`).toEqual([]);
  });

  it("spreads level 3 over hand-over, unassign and refusal, and level 2 uses namesakes", () => {
    const variants = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const { task, site } = generateTask(scenario, "train", i);
      if (task.level === 3) variants.add(task.expected.variant);
      if (task.level === 2) {
        expect(task.expected.issue.kind).toBe("summary");
        expect(task.prompt).toContain(task.expected.assigneeName!);
        expect(NAMESAKES).toContain(task.expected.assigneeName);
        expect(site.get("issues", task.expected.issueId)!.assigneeId).not.toBe(
          task.expected.assigneeAccountId,
        );
      }
    }
    expect([...variants].sort()).toEqual(["assign", "refuse", "unassign"]);
  });

  it("a namesake assignee or an assignment on a refusal task misses the expectation", () => {
    const index = [4, 5, 6, 7].find(
      (i) => generateTask(scenario, "eval", i).task.expected.variant === "assign",
    )!;
    const played = playReference(scenario, "eval", index);
    const { expected } = played.task;
    const namesake = [...played.site.values("users")].find(
      (u) =>
        u.active &&
        u.displayName !== expected.assigneeName &&
        u.displayName.split(" ")[1] === expected.assigneeName!.split(" ")[1],
    )!;
    call(played.site, "assignIssue", { issueIdOrKey: expected.issue.key }, { accountId: namesake.accountId });
    expect(unmet(played.expectation, played.initial, played.site).join()).toMatch(/assigneeId/);

    const refusal = Array.from({ length: 30 }, (_, i) => generateTask(scenario, "train", i).task).find(
      (t) => t.expected.variant === "refuse",
    )!;
    const refused = playReference(scenario, "train", refusal.index);
    expect(refused.final).toMatch(/no one named/);
    const current = refused.site.get("issues", refusal.expected.issueId)!.assigneeId;
    const other = [...refused.site.values("users")].find((u) => u.active && u.accountId !== current)!;
    call(
      refused.site,
      "assignIssue",
      { issueIdOrKey: refusal.expected.issue.key },
      { accountId: other.accountId },
    );
    expect(unmet(refused.expectation, refused.initial, refused.site).join()).toMatch(/collateral/);
  });

  it("introduces absent names from disjoint split pools", () => {
    const names = (split: "eval" | "train") =>
      new Set(
        Array.from(
          { length: 30 },
          (_, i) => generateTask(scenario, split, split === "eval" ? i % 12 : i).task,
        ).flatMap((t) => scenario.introduces!(t.expected)),
      );
    const train = names("train");
    for (const name of names("eval")) expect(train.has(name)).toBe(false);
  });
});
