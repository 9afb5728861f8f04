/**
 * What jira-bulk-transition tasks introduce: the label that marks the batch, and (level 3) the summaries
 * of the many issues the generator adds so that the batch spans more than one search page. Disjoint
 * between the eval and train splits and from the fixture's labels.
 */
import type { Split } from "../define-scenario.ts";

const EVAL_LABELS = [
  "sprint-42-cleanup",
  "q4-freeze",
  "audit-2027",
  "launch-prep",
  "vendor-migration",
  "hackweek",
] as const;

const TRAIN_LABELS = [
  "sprint-17-cleanup",
  "q1-freeze",
  "audit-2026",
  "beta-rollout",
  "infra-move",
  "bug-bash",
  "holiday-freeze",
  "okr-h2",
  "price-change",
  "gdpr-sweep",
] as const;

export const batchLabels = (split: Split): readonly string[] =>
  split === "eval" ? EVAL_LABELS : TRAIN_LABELS;

/** Both pools, for the disjointness test. */
export const BATCH_LABEL_POOLS = { eval: EVAL_LABELS, train: TRAIN_LABELS } as const;

const EVAL_BATCH = ["Archive export batch {n}", "Re-run reconciliation job {n}", "Rotate tenant key set {n}"];
const TRAIN_BATCH = ["Reindex search shard {n}", "Migrate mailbox group {n}", "Backfill audit partition {n}"];

/** A summary template for the many issues of a level-3 batch ({n} is the number). */
export const batchSummaries = (split: Split): readonly string[] =>
  split === "eval" ? EVAL_BATCH : TRAIN_BATCH;
