/**
 * Tool sets: the names and argument shapes an agent is offered. `default` is atlas-gym's catalogue;
 * `rovo` and `mcp-atlassian` are the surfaces of the popular Atlassian MCP servers. Every set maps onto
 * the same operations, so rewards (which check operations and REST payloads) score them alike.
 *
 * A scenario names default tools. A set offers, for a scenario, its tools for those tools' operations;
 * it covers the scenario when it can run every operation the reward needs (each required mutation and
 * at least one read of each validate / verify group). Rovo, for example, has no Confluence label tool.
 */
import { AtlasGymError } from "../../errors.ts";
import { defaultTools } from "../catalogue.ts";
import { defineTool, type Tool } from "../define-tool.ts";
import { MCP_ATLASSIAN_CONFLUENCE_TOOLS } from "./mcp-atlassian-confluence.ts";
import { MCP_ATLASSIAN_JIRA_TOOLS } from "./mcp-atlassian-jira.ts";
import { MCP_ATLASSIAN_JIRA_META_TOOLS } from "./mcp-atlassian-jira-meta.ts";
import { ROVO_CONFLUENCE_TOOLS } from "./rovo-confluence.ts";
import { ROVO_JIRA_TOOLS } from "./rovo-jira.ts";

export const TOOL_SET_NAMES = ["default", "rovo", "mcp-atlassian"] as const;
export type ToolSetName = (typeof TOOL_SET_NAMES)[number];

export const isToolSetName = (name: string): name is ToolSetName =>
  (TOOL_SET_NAMES as readonly string[]).includes(name);

const ALIAS_SPECS = {
  rovo: [...ROVO_JIRA_TOOLS, ...ROVO_CONFLUENCE_TOOLS],
  "mcp-atlassian": [
    ...MCP_ATLASSIAN_JIRA_TOOLS,
    ...MCP_ATLASSIAN_JIRA_META_TOOLS,
    ...MCP_ATLASSIAN_CONFLUENCE_TOOLS,
  ],
};
const built = new Map<ToolSetName, ReadonlyMap<string, Tool>>();

/** Every tool of a set, by name (built on first use). */
export function toolSet(name: ToolSetName): ReadonlyMap<string, Tool> {
  if (name === "default") return defaultTools();
  let tools = built.get(name);
  if (!tools) {
    tools = new Map(ALIAS_SPECS[name].map((spec) => [spec.name, defineTool(spec)]));
    built.set(name, tools);
  }
  return tools;
}

/** Every tool name of every set: a call to one of them that a task does not offer is "disallowed". */
export function allToolNames(): ReadonlySet<string> {
  allNames ??= new Set(TOOL_SET_NAMES.flatMap((name) => [...toolSet(name).keys()]));
  return allNames;
}
let allNames: ReadonlySet<string> | undefined;

/** The operations a task's reward needs (a RewardSpec has this shape). */
export interface OperationNeeds {
  mutations: readonly { operationId: string }[];
  validate: { reads: readonly { operationIds: readonly string[] }[] };
  verify: { reads: readonly { operationIds: readonly string[] }[] };
}

/** What a set cannot run of what a reward needs, in words (empty when it covers the task). */
export function missingOperations(tools: ReadonlyMap<string, Tool>, needs: OperationNeeds): string[] {
  const have = new Set([...tools.values()].map((t) => t.operation.operationId));
  const missing = needs.mutations.map((m) => m.operationId).filter((id) => !have.has(id));
  for (const read of [...needs.validate.reads, ...needs.verify.reads]) {
    const ids = [...new Set(read.operationIds)];
    if (ids.length > 0 && !ids.some((id) => have.has(id))) missing.push(`one of ${ids.join(", ")}`);
  }
  return [...new Set(missing)];
}

/** Thrown when a tool set cannot run the operations a scenario's reward needs. */
export class ToolSetNotCoveredError extends AtlasGymError {
  override name = "ToolSetNotCoveredError";
  constructor(
    readonly toolSet: ToolSetName,
    readonly scenarioId: string,
    readonly missing: readonly string[],
  ) {
    super(
      `Tool set "${toolSet}" does not cover scenario ${scenarioId}: it has no tool for ${missing.join("; ")}.`,
    );
  }
}

/**
 * Operations an alias set may use in place of a scenario's own: the CQL search is how mcp-atlassian
 * finds spaces and pages (it has no tool that lists spaces), so it comes with the Confluence listings.
 */
const STANDS_IN_FOR: Readonly<Record<string, readonly string[]>> = {
  searchByCQL: ["getSpaces", "getPages"],
};

/**
 * The tools a set has for a scenario: those whose operation is the operation of one of the scenario's
 * default tools, or stands in for one (STANDS_IN_FOR).
 */
function toolsFor(name: ToolSetName, scenario: { tools: readonly string[] }): Map<string, Tool> {
  const defaults = defaultTools();
  const operations = new Set(scenario.tools.map((n) => defaults.get(n)?.operation.operationId));
  return new Map(
    [...toolSet(name)].filter(([, { operation }]) =>
      [operation.operationId, ...(STANDS_IN_FOR[operation.operationId] ?? [])].some((id) =>
        operations.has(id),
      ),
    ),
  );
}

/**
 * What a set cannot run of what a scenario needs, in words: empty when the set covers the scenario.
 * Coverage is derived here and nowhere else (the docs' coverage table and the alias-solution tests use it).
 */
export function uncoveredOperations(
  name: ToolSetName,
  scenario: { tools: readonly string[] },
  needs: OperationNeeds,
): string[] {
  return missingOperations(toolsFor(name, scenario), needs);
}

/**
 * The tools a set offers for a scenario (toolsFor). Throws ToolSetNotCoveredError when they cannot run
 * what the reward needs.
 */
export function offeredTools(
  name: ToolSetName,
  scenario: { id: string; tools: readonly string[] },
  needs: OperationNeeds,
): Map<string, Tool> {
  const offered = toolsFor(name, scenario);
  const missing = missingOperations(offered, needs);
  if (missing.length > 0) throw new ToolSetNotCoveredError(name, scenario.id, missing);
  return offered;
}
