/**
 * jira-assign through the alias tool sets (src/scenarios/alias-solution.ts): only mcp-atlassian covers it (Rovo
 * has no assign tool), and it translates the reference call by call (src/scenarios/alias-translate.ts).
 */
import type { AliasSolutions } from "../alias-solution.ts";
import type { AssignExpected } from "./scenario.ts";

export const aliasSolutions: AliasSolutions<AssignExpected> = { "mcp-atlassian": "translate" };
