/**
 * The scenario registry. Registering a scenario is one line here; a test checks every scenario folder is
 * registered and that ids are unique. HELD_OUT names the families kept out of training (see
 * docs/held-out-families.md): the training configs and `export --scenario in-family` leave them out, and
 * eval / compare report their mean apart from the in-family mean.
 */
import { ScenarioNotFoundError, UsageError } from "../errors.ts";
import type { Scenario } from "./define-scenario.ts";
import { FAMILIES } from "./families.ts";
import workflowConfluence from "./workflow-confluence/scenario.ts";
import workflowCrossProduct from "./workflow-cross-product/scenario.ts";
import workflowHeldout from "./workflow-heldout/scenario.ts";
import workflowJira from "./workflow-jira/scenario.ts";

export const SCENARIOS: readonly Scenario[] = [
  ...FAMILIES,
  workflowJira,
  workflowConfluence,
  workflowCrossProduct,
  workflowHeldout,
];

export function findScenario(id: string): Scenario {
  const scenario = SCENARIOS.find((s) => s.id === id);
  if (!scenario)
    throw new ScenarioNotFoundError(
      id,
      SCENARIOS.map((s) => s.id),
    );
  return scenario;
}

/**
 * Families never trained on, to measure generalisation to unseen task families: one Confluence family
 * whose skills (page ids, parents, order) compose in-family ones, and one cross-product family that asks
 * for a new output form (a rich-text table of a JQL search); and the held-out workflow compositions
 * (pairings of a created record with a family it never feeds in training).
 */
export const HELD_OUT: readonly string[] = [
  "jira-link-issues-v1",
  "confluence-page-tree-v1",
  "cross-product-status-report-v1",
  "workflow-heldout-v1",
];

export const isHeldOut = (id: string): boolean => HELD_OUT.includes(id);

/** Names of scenario sets a command accepts besides ids: every family, the trained ones, the held-out ones. */
export const SCENARIO_SETS = ["all", "in-family", "heldout"] as const;

/** The scenarios a `--scenarios` value names: a set name (SCENARIO_SETS) or comma-separated ids. */
export function selectScenarios(spec: string): Scenario[] {
  const value = spec.trim();
  if (value === "all") return [...SCENARIOS];
  if (value === "in-family") return SCENARIOS.filter((s) => !isHeldOut(s.id));
  if (value === "heldout") return SCENARIOS.filter((s) => isHeldOut(s.id));
  const ids = value
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.length === 0)
    throw new UsageError(`No scenario named in '${spec}' (or use ${SCENARIO_SETS.join(", ")})`);
  return ids.map(findScenario);
}
