/**
 * Every scenario through every alias tool set, in process. Coverage is derived from the operations the
 * scenario needs (tools/aliases/tool-sets.ts), never listed by hand: a scenario declares an alias solution
 * (its folder's alias-solutions.ts) exactly for the sets that cover it; with it the set solves each of its
 * 12 eval tasks (level 1 and level 2 alike) and scores exactly 1.0, as the default reference does; a set
 * that does not cover it is refused with the operations it lacks. (The MCP suites run the same solutions
 * over stdio and HTTP.)
 */
import { describe, expect, it } from "vitest";
import { createEpisode } from "../src/env/episode.ts";
import { operationNeeds } from "../src/env/offered-tools.ts";
import { type AliasSetName, aliasSolution } from "../src/scenarios/alias-solution.ts";
import type { Scenario } from "../src/scenarios/define-scenario.ts";
import { tasksFor } from "../src/scenarios/frozen.ts";
import { SCENARIOS } from "../src/scenarios/index.ts";
import {
  TOOL_SET_NAMES,
  ToolSetNotCoveredError,
  uncoveredOperations,
} from "../src/tools/aliases/tool-sets.ts";
import { play } from "./support/play-alias-solution.ts";

const ALIAS_SETS = TOOL_SET_NAMES.filter((s): s is AliasSetName => s !== "default");

const covers = (set: AliasSetName, scenario: Scenario) =>
  uncoveredOperations(set, scenario, operationNeeds(scenario)).length === 0;

describe.each(ALIAS_SETS)("tool set %s", (set) => {
  it.each(SCENARIOS.map((s) => [s.id, s] as [string, Scenario]))("%s", (id, scenario) => {
    const tasks = tasksFor(scenario, "eval");
    const declared = scenario.aliasSolutions?.[set];
    if (!covers(set, scenario)) {
      expect(declared, `${set} does not cover ${id}: remove its ${set} alias solution`).toBeUndefined();
      expect(() => createEpisode(scenario, tasks[0]!, { toolSet: set })).toThrow(ToolSetNotCoveredError);
      return;
    }
    expect(declared, `write an ${set} solution for ${id} in its folder's alias-solutions.ts`).toBeDefined();
    expect(tasks).toHaveLength(12);
    for (const task of tasks) {
      const episode = createEpisode(scenario, task, { toolSet: set });
      expect(episode.functionTools().length).toBeGreaterThan(0);
      expect(play(episode, aliasSolution(scenario, set, task)!).length).toBeGreaterThan(0);
      const score = episode.score();
      expect(score.reward, `${task.id}\n${score.explanation}`).toBe(1);
      expect(score.passed).toBe(true);
      expect(episode.calls.every((c) => c.ok)).toBe(true);
    }
  });
});

it("binds a set to a scenario exactly when the derived coverage says it covers it", () => {
  for (const set of ALIAS_SETS)
    for (const scenario of SCENARIOS) {
      const task = tasksFor(scenario, "eval", 1)[0]!;
      let covered = true;
      try {
        createEpisode(scenario, task, { toolSet: set });
      } catch (error) {
        if (!(error instanceof ToolSetNotCoveredError)) throw error;
        expect(error.missing).toEqual(uncoveredOperations(set, scenario, operationNeeds(scenario)));
        covered = false;
      }
      expect(covered, `${set} / ${scenario.id}`).toBe(covers(set, scenario));
      expect(covered, `${set} / ${scenario.id}: its alias solution`).toBe(
        scenario.aliasSolutions?.[set] !== undefined,
      );
    }
});
