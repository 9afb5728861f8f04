import { describe, expect, it } from "vitest";
import {
  expectRefusalHolds,
  playReference,
  scoreEdited,
  tasksWhere,
  trainReferenceProblems,
} from "../../../test/support/family-checks.ts";
import { ISSUE_LABELS } from "../../sandbox/fixtures/pools.ts";
import type { ToolCallRequest } from "../../tools/tool-call-result.ts";
import { generateTask } from "../tasks.ts";
import { BATCH_LABEL_POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

const issueOf = (c: ToolCallRequest) => (c.arguments as { issueIdOrKey?: string }).issueIdOrKey;

describe("jira-bulk-transition-v1", () => {
  it("train tasks: the reference scores 1.0 with every call succeeding", () => {
    expect(trainReferenceProblems(scenario, 9)).toEqual({});
  });

  it("level 3 batches span two search pages and the issues to move are all on the second", () => {
    const index = tasksWhere(scenario, "eval", (e) => e.variant === "paginate")[0]!;
    const { task, episode } = playReference(scenario, "eval", index);
    const e = task.expected;
    expect(e.moves.length).toBeGreaterThan(50);
    const moving = new Set(e.moves.filter((m) => m.path.length > 0).map((m) => m.key));
    expect(moving.size).toBeGreaterThanOrEqual(3);
    const [first, second] = episode.calls.filter((c) => c.name === "jira_search_issues");
    const keys = (c: typeof first) => (c!.body as { issues: { key: string }[] }).issues.map((i) => i.key);
    expect(keys(first).some((k) => moving.has(k))).toBe(false);
    expect([...moving].every((k) => keys(second).includes(k))).toBe(true);
    const firstPageOnly = scoreEdited(scenario, "eval", index, (calls) =>
      calls.filter((c) => c.name !== "jira_transition_issue" || !moving.has(issueOf(c)!)),
    );
    expect(firstPageOnly.passed).toBe(false);
    expect(firstPageOnly.reward).toBeLessThanOrEqual(0.1);
  });

  it("level 2: moving the namesake's issue in the same status as well fails", () => {
    const index = 4;
    const { task, site } = generateTask(scenario, "eval", index);
    const moved = new Set(task.expected.moves.map((m) => m.id));
    const from = site.get("issues", task.expected.moves[0]!.id)!.statusId;
    const distractor = [...site.values("issues")].find(
      (i) =>
        !moved.has(i.id) &&
        i.statusId === from &&
        i.key.startsWith(`${task.expected.projectKey}-`) &&
        i.assigneeId !== null,
    )!;
    const path = task.expected.moves[0]!.path;
    const extra = scoreEdited(scenario, "eval", index, (calls) => [
      ...calls,
      ...path.map((id) => ({
        name: "jira_transition_issue",
        arguments: { issueIdOrKey: distractor.key, transition: { id } },
      })),
    ]);
    expect(extra.passed).toBe(false);
    expect(extra.violations.map((v) => v.code)).toContain("collateral_change");
  });

  it("fails any transition on a refusal task", () => {
    expectRefusalHolds(
      scenario,
      (e) => e.variant === "refuse",
      ({ task }) => {
        const m = task.expected.moves[0]!;
        const status = generateTask(scenario, "eval", task.index).site.get("issues", m.id)!.statusId;
        const id = status === "10001" ? "51" : "31";
        return { name: "jira_transition_issue", arguments: { issueIdOrKey: m.key, transition: { id } } };
      },
    );
  });

  it("draws batch labels from disjoint split pools that the fixture does not use", () => {
    const evalPool = new Set<string>(BATCH_LABEL_POOLS.eval);
    for (const l of [...BATCH_LABEL_POOLS.train, ...ISSUE_LABELS]) expect(evalPool.has(l)).toBe(false);
  });
});
