/**
 * jira-link-issues through the alias tool sets (src/scenarios/alias-solution.ts): both cover it, and both translate
 * its reference call by call (src/scenarios/alias-translate.ts).
 */
import type { AliasSolutions } from "../alias-solution.ts";
import type { LinkExpected } from "./scenario.ts";

export const aliasSolutions: AliasSolutions<LinkExpected> = {
  rovo: "translate",
  "mcp-atlassian": "translate",
};
