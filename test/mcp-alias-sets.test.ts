/**
 * Every scenario through every tool set, in process: a set that covers a scenario solves each of its
 * 12 eval tasks (level 1 and level 2 alike) with the hand-written alias solution and scores exactly
 * 1.0, as the default reference does; a set that does not cover it is refused with the operations it
 * lacks. (The MCP suites run the same solutions over stdio and HTTP.)
 */
import { describe, expect, it } from "vitest";
import type { Scenario } from "../src/scenarios/define-scenario.ts";
import { createEpisode } from "../src/scenarios/episode.ts";
import { tasksFor } from "../src/scenarios/frozen.ts";
import { SCENARIOS } from "../src/scenarios/index.ts";
import { ToolSetNotCoveredError } from "../src/tools/aliases/tool-sets.ts";
import { ALIAS_SOLUTIONS, play } from "./mcp-alias-solutions.ts";

/**
 * Which scenarios each alias set covers (Rovo has no Confluence label tool, no CQL search, no remote-link
 * write and no assign; mcp-atlassian reads no remote links; neither removes labels).
 */
const COVERS: Record<keyof typeof ALIAS_SOLUTIONS, string[]> = {
  rovo: [
    "jira-transition-v1",
    "jira-subtask-create-v1",
    "confluence-page-create-v1",
    "confluence-page-update-v1",
    "cross-product-status-report-v1",
    "jira-comment-v1",
    "jira-link-issues-v1",
    "jira-edit-fields-v1",
    "jira-bulk-transition-v1",
    "jira-create-issue-v1",
  ],
  "mcp-atlassian": [
    "jira-transition-v1",
    "jira-subtask-create-v1",
    "confluence-page-create-v1",
    "confluence-page-label-v1",
    "cross-product-page-link-v1",
    "confluence-page-tree-v1",
    "cross-product-status-report-v1",
    "jira-assign-v1",
    "jira-comment-v1",
    "jira-link-issues-v1",
    "jira-edit-fields-v1",
    "jira-bulk-transition-v1",
    "jira-create-issue-v1",
  ],
};

describe.each(Object.keys(ALIAS_SOLUTIONS) as (keyof typeof ALIAS_SOLUTIONS)[])("tool set %s", (set) => {
  it.each(SCENARIOS.map((s) => [s.id, s] as [string, Scenario]))("%s", (id, scenario) => {
    const tasks = tasksFor(scenario, "eval");
    if (!COVERS[set].includes(id)) {
      expect(ALIAS_SOLUTIONS[set][id]).toBeUndefined();
      expect(() => createEpisode(scenario, tasks[0]!, { toolSet: set })).toThrow(ToolSetNotCoveredError);
      return;
    }
    const solve = ALIAS_SOLUTIONS[set][id];
    expect(solve, `write an ${set} solution for ${id} in test/mcp-alias-solutions.ts`).toBeDefined();
    expect(tasks).toHaveLength(12);
    for (const task of tasks) {
      const episode = createEpisode(scenario, task, { toolSet: set });
      expect(episode.functionTools().length).toBeGreaterThan(0);
      expect(play(episode, solve!(task)).length).toBeGreaterThan(0);
      const score = episode.score();
      expect(score.reward, `${task.id}\n${score.explanation}`).toBe(1);
      expect(score.passed).toBe(true);
      expect(episode.calls.every((c) => c.ok)).toBe(true);
    }
  });
});

it("lists every scenario as covered or not by each set", () => {
  for (const set of Object.keys(COVERS) as (keyof typeof COVERS)[])
    for (const scenario of SCENARIOS) {
      const task = tasksFor(scenario, "eval", 1)[0]!;
      let covered = true;
      try {
        createEpisode(scenario, task, { toolSet: set });
      } catch (error) {
        if (!(error instanceof ToolSetNotCoveredError)) throw error;
        covered = false;
      }
      expect(covered, `${set} / ${scenario.id}: update COVERS and test/mcp-alias-solutions.ts`).toBe(
        COVERS[set].includes(scenario.id),
      );
    }
});
