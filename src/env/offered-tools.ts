/**
 * The tools a task offers: the one place that decides them, whatever surface asks (an episode, an MCP
 * session bound to one, a journaled session replayed with its alias set). The default set offers the
 * scenario's own tools from the catalogue; another set offers its tools for the scenario's operations,
 * and must be able to run what the reward needs (the scenario's writes and one of its reads).
 */
import type { Scenario } from "../scenarios/define-scenario.ts";
import { offeredTools, type ToolSetName } from "../tools/aliases/tool-sets.ts";
import { defaultTools } from "../tools/catalogue.ts";
import type { Tool } from "../tools/define-tool.ts";

/**
 * The tools `set` offers for a scenario, by name. `catalogue` is where the default set's names are looked
 * up (default: the default catalogue). Throws ToolSetNotCoveredError when an alias set cannot run what
 * the reward needs, and an Error when the scenario names a tool the catalogue lacks.
 */
export function taskTools(
  scenario: Scenario<unknown>,
  set: ToolSetName = "default",
  catalogue: ReadonlyMap<string, Tool> = defaultTools(),
): ReadonlyMap<string, Tool> {
  if (set !== "default") return offeredTools(set, scenario, operationNeeds(scenario));
  return new Map(
    scenario.tools.map((name) => {
      const tool = catalogue.get(name);
      if (!tool) throw new Error(`Scenario ${scenario.id} names unknown tool ${name}`);
      return [name, tool];
    }),
  );
}

/**
 * The operations a tool set must be able to run for a scenario: every write of its default tools, and
 * at least one of its reads (for R2).
 */
export function operationNeeds(scenario: Scenario<unknown>) {
  const ops = scenario.tools.map((name) => defaultTools().get(name)!.operation);
  const reads = ops.filter((o) => o.effect === "read").map((o) => o.operationId);
  return {
    mutations: ops.filter((o) => o.effect === "write").map((o) => ({ operationId: o.operationId })),
    validate: {
      reads: [
        { operationIds: reads },
        ...(scenario.lookups ?? []).map((ids) => ({ operationIds: [...ids] })),
      ],
    },
    verify: { reads: [{ operationIds: reads }] },
  };
}
