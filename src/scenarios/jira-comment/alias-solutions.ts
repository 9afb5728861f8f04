/**
 * jira-comment through the alias tool sets (src/scenarios/alias-solution.ts): both cover it, and both translate
 * its reference call by call (src/scenarios/alias-translate.ts).
 */
import type { AliasSolutions } from "../alias-solution.ts";
import type { CommentExpected } from "./scenario.ts";

export const aliasSolutions: AliasSolutions<CommentExpected> = {
  rovo: "translate",
  "mcp-atlassian": "translate",
};
