/**
 * The scenario registry. Registering a scenario is one line here; a test checks every scenario folder is
 * registered and that ids are unique.
 */
import { ScenarioNotFoundError } from "../errors.ts";
import confluencePageCreate from "./confluence-page-create/scenario.ts";
import confluencePageLabel from "./confluence-page-label/scenario.ts";
import crossProductPageLink from "./cross-product-page-link/scenario.ts";
import type { Scenario } from "./define-scenario.ts";
import jiraSubtaskCreate from "./jira-subtask-create/scenario.ts";
import jiraTransition from "./jira-transition/scenario.ts";

export const SCENARIOS: readonly Scenario[] = [
  jiraTransition,
  jiraSubtaskCreate,
  confluencePageCreate,
  confluencePageLabel,
  crossProductPageLink,
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
