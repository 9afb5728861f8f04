// taskTools: the one answer to "which tools does this task offer", for the default set and an alias set.
import { describe, expect, it } from "vitest";
import { findScenario } from "../scenarios/index.ts";
import { toolSet } from "../tools/aliases/tool-sets.ts";
import { defaultTools } from "../tools/catalogue.ts";
import { taskTools } from "./offered-tools.ts";

const scenario = findScenario("jira-transition-v1");

describe("taskTools", () => {
  it("offers the scenario's own tools from the catalogue by default", () => {
    const tools = taskTools(scenario);
    expect([...tools.keys()]).toEqual(scenario.tools);
    for (const [name, tool] of tools) expect(tool).toBe(defaultTools().get(name));
  });

  it("offers an alias set's tools for the scenario's operations, covering every write", () => {
    const tools = taskTools(scenario, "mcp-atlassian");
    const set = toolSet("mcp-atlassian");
    expect(tools.size).toBeGreaterThan(0);
    for (const [name, tool] of tools) expect(tool).toBe(set.get(name));
    const writes = scenario.tools.filter((n) => defaultTools().get(n)!.operation.effect === "write");
    for (const name of writes)
      expect(
        [...tools.values()].some(
          (t) => t.operation.operationId === defaultTools().get(name)!.operation.operationId,
        ),
      ).toBe(true);
  });

  it("rejects a scenario that names a tool the catalogue lacks", () => {
    expect(() => taskTools({ ...scenario, tools: ["jira_no_such_tool"] })).toThrow(
      `Scenario ${scenario.id} names unknown tool jira_no_such_tool`,
    );
  });
});
