import { describe, expect, it } from "vitest";
import { call } from "../../../test/support/call.ts";
import { playReference, referenceProblems, unmet } from "../../../test/support/expectation-check.ts";
import { NAMESAKES } from "../jira-picks.ts";
import { generateTask } from "../tasks.ts";
import { COMMENT_POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

const doc = (...content: unknown[]) => ({
  type: "doc",
  version: 1,
  content: [{ type: "paragraph", content }],
});

describe("jira-comment-v1", () => {
  it.each(Array.from({ length: 12 }, (_, i) => i))(
    "eval task %i: the reference meets its expectation",
    (i) => {
      expect(referenceProblems(scenario, "eval", i)).toEqual([]);
    },
  );

  it("train tasks: the reference meets its expectation", () => {
    for (let i = 0; i < 15; i++) expect(referenceProblems(scenario, "train", i), `train ${i}`).toEqual([]);
  });

  it("eval covers plain comments, namesake mentions and a refusal at level 3", () => {
    const tasks = Array.from({ length: 12 }, (_, i) => generateTask(scenario, "eval", i).task);
    expect(new Set(tasks.filter((t) => t.level === 3).map((t) => t.expected.variant))).toEqual(
      new Set(["plain", "mention", "refuse"]),
    );
    for (const t of tasks.filter((t) => t.expected.variant === "mention"))
      expect(NAMESAKES).toContain(t.expected.mentionName);
  });

  it("a comment without the mention, with extra text, or on a refusal task misses the expectation", () => {
    const index = [4, 5, 6, 7].find(
      (i) => generateTask(scenario, "eval", i).task.expected.variant === "mention",
    )!;
    const base = playReference(scenario, "eval", index);
    const { expected } = base.task;
    const variants = [
      doc({ type: "text", text: expected.text }),
      doc(
        { type: "mention", attrs: { id: expected.mentionAccountId } },
        { type: "text", text: ` ${expected.text} Thanks!` },
      ),
    ];
    for (const body of variants) {
      const { task, site: initial } = generateTask(scenario, "eval", index);
      const site = initial.fork();
      call(site, "addComment", { issueIdOrKey: task.expected.issue.key }, { body });
      expect(unmet(base.expectation, initial, site).length).toBeGreaterThan(0);
    }
    const refusal = [8, 9, 10, 11].find(
      (i) => generateTask(scenario, "eval", i).task.expected.variant === "refuse",
    )!;
    const refused = playReference(scenario, "eval", refusal);
    expect(refused.calls.every((c) => c.effect === "read")).toBe(true);
    call(refused.site, "addComment", { issueIdOrKey: "ENG-1" }, { body: doc({ type: "text", text: "x" }) });
    expect(unmet(refused.expectation, refused.initial, refused.site).join()).toMatch(/collateral/);
  });

  it("draws comment texts from disjoint split pools", () => {
    const evalPool = new Set<string>(COMMENT_POOLS.eval);
    for (const text of COMMENT_POOLS.train) expect(evalPool.has(text)).toBe(false);
    for (let i = 0; i < 20; i++)
      expect(COMMENT_POOLS.train).toContain(generateTask(scenario, "train", i).task.expected.text);
  });
});
