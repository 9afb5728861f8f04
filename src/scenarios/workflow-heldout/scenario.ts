/**
 * workflow-heldout-v1: held-out compositions, never trained on: workflows that pair a created record with
 * a family it never feeds in training (a new issue linked to another, a new sub-task transitioned), around
 * the held-out families (src/scenarios/workflows/catalogue.ts, HELD_OUT_FEEDS; docs/held-out-families.md).
 */
import { defineWorkflow } from "../workflows/define-workflow.ts";

export default defineWorkflow(
  "heldout",
  "workflow-heldout-v1",
  "Held-out workflow compositions: 2-5 steps pairing created records with families they never feed in training.",
);
