/**
 * Labels that confluence-label-cleanup tasks put on pages and then ask to remove. The eval and train
 * pools are disjoint from each other and from the fixture's labels (so a label's pages are exactly the
 * ones the generator chose); level 2 adds the look-alike `<label>-v2`. Valid Confluence label names.
 */
import type { Split } from "../define-scenario.ts";

const EVAL_LABELS = [
  "obsolete",
  "needs-owner",
  "migrated-from-wiki",
  "stale-2024",
  "to-be-merged",
  "legacy-billing",
  "old-infra",
  "wip-drafts",
  "review-pending",
  "sunset",
  "temp-import",
  "unverified",
  "pre-reorg",
  "duplicate-content",
] as const;

const TRAIN_LABELS = [
  "outdated-info",
  "needs-update",
  "imported",
  "legacy-auth",
  "old-process",
  "stale-2023",
  "to-archive",
  "deprecated-api",
  "moved",
  "wip",
  "legacy-ci",
  "unowned",
  "temp",
  "pending-review",
  "old-roadmap",
  "superseded",
  "do-not-use",
  "draft-import",
  "needs-cleanup",
  "pre-migration",
  "beta-docs",
  "sandbox-notes",
  "old-team",
  "retired-service",
  "needs-links",
  "legacy-mobile",
  "prototype",
  "archive-candidate",
  "stale-links",
  "check-later",
  "old-oncall",
  "legacy-search",
  "copy-paste",
  "temp-notes",
  "to-rewrite",
  "frozen",
  "experimental",
  "legacy-ops",
  "unreviewed",
  "needs-split",
] as const;

export function cleanupLabels(split: Split): readonly string[] {
  return split === "eval" ? EVAL_LABELS : TRAIN_LABELS;
}

/** Both pools, for the disjointness test. */
export const CLEANUP_LABEL_POOLS = { eval: EVAL_LABELS, train: TRAIN_LABELS } as const;
