import { describe, expect, it } from "vitest";
import { call } from "../../../test/support/call.ts";
import { playReference, referenceProblems, unmet } from "../../../test/support/expectation-check.ts";
import { ISSUE_LABELS } from "../../sandbox/fixtures/pools.ts";
import { generateTask } from "../tasks.ts";
import { BATCH_LABEL_POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

describe("jira-bulk-transition-v1", () => {
  it.each(Array.from({ length: 12 }, (_, i) => i))(
    "eval task %i: the reference meets its expectation",
    (i) => {
      expect(referenceProblems(scenario, "eval", i)).toEqual([]);
    },
  );

  it("train tasks: the reference meets its expectation", () => {
    for (let i = 0; i < 9; i++) expect(referenceProblems(scenario, "train", i), `train ${i}`).toEqual([]);
  });

  it("level 3 batches span two search pages, and the reference follows nextPageToken", () => {
    const index = [8, 9, 10, 11].find(
      (i) => generateTask(scenario, "eval", i).task.expected.variant === "paginate",
    )!;
    const played = playReference(scenario, "eval", index);
    expect(played.task.expected.moves.length).toBeGreaterThan(50);
    const searches = played.calls.filter((c) => c.name === "jira_search_issues");
    expect(searches.some((c) => (c.arguments as { nextPageToken?: string }).nextPageToken)).toBe(true);
  });

  it("level 2 namesakes hold distractor issues in the same status, which must not move", () => {
    const played = playReference(scenario, "eval", 4);
    const e = played.task.expected;
    const from = [...played.initial.values("issues")].filter(
      (i) =>
        i.statusId === played.initial.get("issues", e.moves[0]!.id)!.statusId &&
        !e.moves.some((m) => m.id === i.id) &&
        i.key.startsWith(`${e.projectKey}-`) &&
        i.assigneeId !== null,
    );
    expect(from.length).toBeGreaterThan(0);
    const site = played.site;
    const distractor = from[0]!;
    const transitions = call(site, "getTransitions", { issueIdOrKey: distractor.key }).body as {
      transitions: { id: string }[];
    };
    call(
      site,
      "doTransition",
      { issueIdOrKey: distractor.key },
      { transition: { id: transitions.transitions[0]!.id } },
    );
    expect(unmet(played.expectation, played.initial, site).join()).toMatch(/collateral/);
  });

  it("stopping after the first page, or moving issues on a refusal task, misses the expectation", () => {
    const index = [8, 9, 10, 11].find(
      (i) => generateTask(scenario, "eval", i).task.expected.variant === "paginate",
    )!;
    const played = playReference(scenario, "eval", index);
    const { site: initial } = generateTask(scenario, "eval", index);
    const site = initial.fork();
    for (const m of played.task.expected.moves.slice(0, 50))
      for (const id of m.path) call(site, "doTransition", { issueIdOrKey: m.key }, { transition: { id } });
    expect(unmet(played.expectation, initial, site).length).toBeGreaterThan(0);

    const refusal = [8, 9, 10, 11].find(
      (i) => generateTask(scenario, "eval", i).task.expected.variant === "refuse",
    )!;
    const refused = playReference(scenario, "eval", refusal);
    expect(refused.calls.every((c) => c.effect === "read")).toBe(true);
    const m = refused.task.expected.moves[0]!;
    const first = (
      call(refused.site, "getTransitions", { issueIdOrKey: m.key }).body as { transitions: { id: string }[] }
    ).transitions[0]!;
    call(refused.site, "doTransition", { issueIdOrKey: m.key }, { transition: { id: first.id } });
    expect(unmet(refused.expectation, refused.initial, refused.site).join()).toMatch(/collateral/);
  });

  it("draws batch labels from disjoint split pools that the fixture does not use", () => {
    const evalPool = new Set<string>(BATCH_LABEL_POOLS.eval);
    for (const l of [...BATCH_LABEL_POOLS.train, ...ISSUE_LABELS]) expect(evalPool.has(l)).toBe(false);
  });
});
