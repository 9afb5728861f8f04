import { describe, expect, it } from "vitest";
import { runReference } from "../../agent/scripted/replay.ts";
import { createEpisode } from "../../env/episode.ts";
import { SUBTASK_SUMMARIES } from "../../sandbox/fixtures/pools.ts";
import { generateTask } from "../tasks.ts";
import { SUMMARY_POOLS } from "./pools.ts";
import scenario from "./scenario.ts";

/** Plays the reference, then one more createIssue with the given changes to the reference's fields. */
function scoreWithFields(index: number, change: (fields: Record<string, unknown>) => void) {
  const { task } = generateTask(scenario, "eval", index);
  const episode = createEpisode(scenario, task);
  runReference(episode);
  const create = episode.calls.find((c) => c.name === "jira_create_issue")!;
  const fields = structuredClone((create.arguments as { fields: Record<string, unknown> }).fields);
  change(fields);
  const fresh = createEpisode(scenario, task);
  for (const c of episode.calls)
    fresh.step(c.name === "jira_create_issue" ? { name: c.name, arguments: { fields } } : c);
  return fresh.score();
}

describe("jira-subtask-create-v1", () => {
  it("draws summaries from disjoint split pools that the fixture does not use", () => {
    const evalPool = new Set<string>(SUMMARY_POOLS.eval);
    for (const s of [...SUMMARY_POOLS.train, ...SUBTASK_SUMMARIES]) expect(evalPool.has(s)).toBe(false);
    for (let i = 0; i < 20; i++)
      expect(SUMMARY_POOLS.train).toContain(generateTask(scenario, "train", i).task.expected.summary);
  });

  it("fails the state check and loses reward for a namesake assignee or a missing priority", () => {
    const pairs: Record<string, string> = {
      "Jordan Leigh": "Jordan Lee",
      "Jordan Lee": "Jordan Leigh",
      "Alex Chen": "Alexa Chen",
      "Alexa Chen": "Alex Chen",
      "Sam Rivera": "Samantha Rivera",
      "Samantha Rivera": "Sam Rivera",
    };
    // Level-2 tasks always name one member of a namesake pair.
    const { task, site } = generateTask(scenario, "eval", 9);
    const other = [...site.values("users")].find((u) => u.displayName === pairs[task.expected.assigneeName])!;
    expect(other).toBeDefined();
    const namesake = scoreWithFields(9, (f) => {
      f.assignee = { accountId: other.accountId };
    });
    expect(namesake.passed).toBe(false);
    expect(namesake.reward).toBeLessThan(1);
    const noPriority = scoreWithFields(2, (f) => {
      delete f.priority;
    });
    expect(noPriority.passed).toBe(false);
    expect(noPriority.reward).toBeLessThan(1);
  });

  it("accepts the project's sub-task type by name and the parent by id", () => {
    const { task } = generateTask(scenario, "eval", 10);
    const result = scoreWithFields(10, (f) => {
      f.issuetype = { name: task.expected.subtaskTypeName.toUpperCase() };
      f.parent = { id: task.expected.parentId };
    });
    expect(result.reward).toBe(1);
    expect(result.passed).toBe(true);
  });
});
