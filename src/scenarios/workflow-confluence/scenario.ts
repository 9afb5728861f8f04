/**
 * workflow-confluence-v1: Confluence workflows of 2–5 steps composed from the Confluence families (create
 * a page, then label it or create a child under it; updates and label clean-ups of other pages), from the
 * catalogue's in-family feeds (src/scenarios/workflows/catalogue.ts).
 */
import { defineWorkflow } from "../workflows/define-workflow.ts";

export default defineWorkflow(
  "confluence",
  "workflow-confluence-v1",
  "A Confluence workflow of 2-5 steps composed from the Confluence families, later steps acting on the pages earlier ones create.",
);
