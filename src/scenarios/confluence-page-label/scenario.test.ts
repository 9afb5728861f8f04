import { describe, expect, it } from "vitest";
import { recordReference } from "../../agent/scripted/replay.ts";
import { createEpisode } from "../../env/episode.ts";
import { ISSUE_LABELS, PAGE_LABELS } from "../../sandbox/fixtures/pools.ts";
import { EVAL_TASKS, generateTask } from "../tasks.ts";
import { LABEL_POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

type AddArgs = { id: string; labels: unknown };

/** Plays the reference with its addLabelsToContent call replaced by the calls `change` returns. */
function scoreWithAdds(index: number, change: (args: AddArgs) => AddArgs[]) {
  const { task } = generateTask(scenario, "eval", index);
  const script = recordReference(scenario, task);
  const episode = createEpisode(scenario, task);
  for (const c of script.calls) {
    const args = structuredClone(c.arguments) as AddArgs;
    for (const a of c.name === "confluence_add_page_labels" ? change(args) : [args])
      episode.step({ name: c.name, arguments: a });
  }
  return episode.score();
}

/** Plays the reference with its addLabelsToContent call's arguments changed. */
const scoreWithAdd = (index: number, change: (args: AddArgs) => void) =>
  scoreWithAdds(index, (a) => {
    change(a);
    return [a];
  });

/** An eval task whose request repeats a label the page already has. */
const repeating = () =>
  [...Array(EVAL_TASKS).keys()].find((i) => {
    const e = generateTask(scenario, "eval", i).task.expected;
    return e.requested.length > e.missing.length;
  })!;

const global = (...names: string[]) => names.map((name) => ({ prefix: "global", name }));

describe("confluence-page-label-v1", () => {
  it("introduces labels from disjoint split pools that the fixture does not use", () => {
    const evalPool = new Set<string>(LABEL_POOLS.eval);
    for (const l of [...LABEL_POOLS.train, ...PAGE_LABELS, ...ISSUE_LABELS])
      expect(evalPool.has(l)).toBe(false);
    for (let i = 0; i < 20; i++) {
      const { expected } = generateTask(scenario, "train", i).task;
      for (const l of scenario.introduces!(expected)) expect(LABEL_POOLS.train).toContain(l);
      expect(expected.missing.length).toBeGreaterThan(0);
      expect(expected.existing.length).toBeGreaterThanOrEqual(1);
    }
  });

  it("judges re-adding a label the page already has by its effect: a write that changes nothing is wasted", () => {
    const index = repeating();
    const { expected } = generateTask(scenario, "eval", index).task;
    const again = expected.requested.find((l) => !expected.missing.includes(l))!;
    const together = scoreWithAdd(index, (a) => {
      a.labels = global(...expected.requested);
    });
    const apart = scoreWithAdds(index, (a) => [a, { id: a.id, labels: global(again) }]);
    // Inside a call that adds a missing label it changes nothing anyone can see.
    expect(together.passed).toBe(true);
    expect(together.reward, together.explanation).toBe(1);
    // On its own, the call changes nothing: a wasted mutation.
    expect(apart.passed).toBe(true);
    expect(apart.violations.map((v) => v.code)).toEqual(["wasted_mutation"]);
    expect(apart.reward).toBeLessThan(1);
  });

  it("scores one call per missing label like one call with all of them", () => {
    for (const index of [9, 10]) {
      const { expected } = generateTask(scenario, "eval", index).task;
      const result = scoreWithAdds(index, (a) =>
        expected.missing.map((l) => ({ id: a.id, labels: global(l) })),
      );
      expect(result.reward, result.explanation).toBe(1);
      expect(result.passed).toBe(true);
    }
  });

  it("fails the state check and loses reward for a missing label, another prefix or the look-alike page", () => {
    const e = generateTask(scenario, "eval", 9).task.expected;
    const missingOne = scoreWithAdd(9, (a) => {
      a.labels = global(...e.missing.slice(1));
    });
    const team = scoreWithAdd(9, (a) => {
      a.labels = e.missing.map((name) => ({ prefix: "team", name }));
    });
    const { site } = generateTask(scenario, "eval", 9);
    const twin = [...site.values("pages")].find((p) => p.title === e.title && p.id !== e.pageId)!;
    const wrongPage = scoreWithAdd(9, (a) => {
      a.id = twin.id;
    });
    for (const result of [missingOne, team, wrongPage]) {
      expect(result.passed, result.explanation).toBe(false);
      expect(result.reward).toBeLessThan(1);
    }
  });

  it("accepts a single label object and upper-case names", () => {
    const index = [...Array(EVAL_TASKS).keys()].find(
      (i) => generateTask(scenario, "eval", i).task.expected.missing.length === 1,
    )!;
    const { expected } = generateTask(scenario, "eval", index).task;
    const result = scoreWithAdd(index, (a) => {
      a.labels = { prefix: "GLOBAL", name: expected.missing[0]!.toUpperCase() };
    });
    expect(result.reward, result.explanation).toBe(1);
    expect(result.passed).toBe(true);
  });
});
