import { describe, expect, it } from "vitest";
import { call } from "../../../test/support/call.ts";
import { playReference, referenceProblems, unmet } from "../../../test/support/expectation-check.ts";
import { ISSUE_LABELS } from "../../sandbox/fixtures/pools.ts";
import { generateTask } from "../tasks.ts";
import { LABEL_POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

describe("jira-edit-fields-v1", () => {
  it.each(Array.from({ length: 12 }, (_, i) => i))(
    "eval task %i: the reference meets its expectation",
    (i) => {
      expect(referenceProblems(scenario, "eval", i)).toEqual([]);
    },
  );

  it("train tasks: the reference meets its expectation", () => {
    for (let i = 0; i < 15; i++) expect(referenceProblems(scenario, "train", i), `train ${i}`).toEqual([]);
  });

  it("level 2 removes a label the issue has; level 3 refuses a missing priority", () => {
    for (let i = 4; i < 12; i++) {
      const { task, site } = generateTask(scenario, "eval", i);
      const e = task.expected;
      if (e.refuse) expect(task.level).toBe(3);
      else expect(site.get("issues", e.issueId)!.labels).toContain(e.removeLabel);
    }
    expect(
      Array.from({ length: 12 }, (_, i) => generateTask(scenario, "eval", i).task.expected.refuse),
    ).toContain(true);
  });

  it("keeping a label to remove, a collateral field or an edit on a refusal task misses the expectation", () => {
    const index = 5;
    const played = playReference(scenario, "eval", index);
    const e = played.task.expected;
    const wrong = [
      {
        fields: {
          priority: { name: e.priorityName },
          duedate: e.duedate,
          labels: [e.addLabel, e.removeLabel],
        },
      },
      {
        fields: { priority: { name: e.priorityName }, duedate: e.duedate, summary: "Changed" },
        update: { labels: [{ add: e.addLabel }, { remove: e.removeLabel }] },
      },
    ];
    for (const body of wrong) {
      const { site: initial } = generateTask(scenario, "eval", index);
      const site = initial.fork();
      expect(call(site, "editIssue", { issueIdOrKey: e.issue.key }, body).status).toBe(204);
      expect(unmet(played.expectation, initial, site).length).toBeGreaterThan(0);
    }
    const refusal = Array.from({ length: 12 }, (_, i) => i).find(
      (i) => generateTask(scenario, "eval", i).task.expected.refuse,
    )!;
    const refused = playReference(scenario, "eval", refusal);
    expect(refused.calls.every((c) => c.effect === "read")).toBe(true);
    call(
      refused.site,
      "editIssue",
      { issueIdOrKey: refused.task.expected.issue.key },
      { fields: { priority: { name: "Highest" } } },
    );
    expect(unmet(refused.expectation, refused.initial, refused.site).length).toBeGreaterThan(0);
  });

  it("draws new labels from disjoint split pools that the fixture does not use", () => {
    const evalPool = new Set<string>(LABEL_POOLS.eval);
    for (const l of [...LABEL_POOLS.train, ...ISSUE_LABELS]) expect(evalPool.has(l)).toBe(false);
  });
});
