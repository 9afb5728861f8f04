import { describe, expect, it } from "vitest";
import { call } from "../../../test/support/call.ts";
import { playReference, referenceProblems, unmet } from "../../../test/support/expectation-check.ts";
import { generateTask } from "../tasks.ts";
import { IDEA_POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

describe("jira-create-issue-v1", () => {
  it.each(Array.from({ length: 12 }, (_, i) => i))(
    "eval task %i: the reference meets its expectation",
    (i) => {
      expect(referenceProblems(scenario, "eval", i)).toEqual([]);
    },
  );

  it("train tasks: the reference meets its expectation", () => {
    for (let i = 0; i < 15; i++) expect(referenceProblems(scenario, "train", i), `train ${i}`).toEqual([]);
  });

  it("level 3 finds the project through its lead, or refuses an issue type the project lacks", () => {
    const tasks = [8, 9, 10, 11].map((i) => generateTask(scenario, "eval", i).task);
    expect(new Set(tasks.map((t) => (t.expected.refuse ? "refuse" : t.expected.projectRef)))).toEqual(
      new Set(["lead", "refuse"]),
    );
    for (const t of tasks.filter((t) => !t.expected.refuse))
      expect(t.prompt).toContain(`${t.expected.leadName} leads`);
  });

  it("a truncated description, a wrong type or a creation on a refusal task misses the expectation", () => {
    const index = 5;
    const played = playReference(scenario, "eval", index);
    const e = played.task.expected;
    const fields = {
      project: { id: e.projectId },
      summary: e.summary,
      priority: { id: e.priorityId },
      labels: e.labels,
    };
    const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });
    const doc = (texts: string[]) => ({ type: "doc", version: 1, content: texts.map(paragraph) });
    const wrong = [
      { ...fields, issuetype: { id: e.issueTypeId }, description: doc(e.paragraphs.slice(0, 1)) },
      {
        ...fields,
        issuetype: { name: e.issueTypeName === "Bug" ? "Task" : "Bug" },
        description: doc(e.paragraphs),
      },
    ];
    for (const f of wrong) {
      const { site: initial } = generateTask(scenario, "eval", index);
      const site = initial.fork();
      expect(call(site, "createIssue", {}, { fields: f }).status).toBe(201);
      expect(unmet(played.expectation, initial, site).length).toBeGreaterThan(0);
    }
    const refusal = [8, 9, 10, 11].find((i) => generateTask(scenario, "eval", i).task.expected.refuse)!;
    const refused = playReference(scenario, "eval", refusal);
    expect(refused.calls.every((c) => c.effect === "read")).toBe(true);
    call(refused.site, "createIssue", {}, { fields: { ...fields, issuetype: { name: "Task" } } });
    expect(unmet(refused.expectation, refused.initial, refused.site).join()).toMatch(/collateral/);
  });

  it("draws summaries from disjoint split pools", () => {
    const evalPool = new Set<string>(IDEA_POOLS.eval.map((i) => i[0]));
    for (const [summary] of IDEA_POOLS.train) expect(evalPool.has(summary)).toBe(false);
  });
});
