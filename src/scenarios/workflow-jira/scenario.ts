/**
 * workflow-jira-v1: Jira workflows of 2–5 steps composed from the Jira families (create an issue, then
 * assign, comment on, transition it or give it a sub-task; edits, transitions and comments on other
 * issues around it), from the catalogue's in-family feeds (src/scenarios/workflows/catalogue.ts).
 */
import { defineWorkflow } from "../workflows/define-workflow.ts";

export default defineWorkflow(
  "jira",
  "workflow-jira-v1",
  "A Jira workflow of 2-5 steps composed from the Jira families, later steps acting on what earlier ones create.",
);
