/**
 * workflow-cross-product-v1: workflows of 2–5 steps across Jira and Confluence (a new issue documented on
 * a linked page, pages and issues created and then acted on, edits in both products), from the
 * catalogue's in-family feeds (src/scenarios/workflows/catalogue.ts).
 */
import { defineWorkflow } from "../workflows/define-workflow.ts";

export default defineWorkflow(
  "cross-product",
  "workflow-cross-product-v1",
  "A workflow of 2-5 steps across Jira and Confluence composed from the families, later steps acting on what earlier ones create.",
);
