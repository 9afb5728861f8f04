/**
 * Label names that confluence-page-label tasks ask to add. The eval and train pools are disjoint from
 * each other and from the fixture's own page and issue labels, so a trained agent never sees an eval
 * label and a requested new label is never already on the target page. All are valid Confluence label
 * names: lowercase, no spaces, none of `: ; , . ? & [ ] ( ) # ^ * @ ! '`.
 */
import type { Split } from "../define-scenario.ts";

const EVAL_LABELS = [
  "needs-review",
  "customer-facing",
  "deprecated",
  "compliance",
  "owner-sre",
  "gdpr",
  "incident-review",
  "quarterly-review",
  "public-docs",
  "team-payments",
  "archived-2024",
  "sla",
  "faq",
  "how-it-works",
] as const;

const TRAIN_LABELS = [
  "onboarding",
  "security-review",
  "postmortem",
  "decision-log",
  "api-docs",
  "checklist",
  "troubleshooting",
  "retro",
  "planning",
  "budget",
  "vendor",
  "legal",
  "mobile",
  "web",
  "data-platform",
  "ml",
  "release",
  "hotfix",
  "q1",
  "q2",
  "q4",
  "okr",
  "tutorial",
  "reference",
  "glossary",
  "template",
  "policy",
  "team-growth",
  "hiring",
  "oncall-tips",
  "outdated",
  "stakeholders",
  "kpi",
  "design-review",
  "team-search",
  "archived-2023",
  "internal-only",
  "migration",
  "faq-internal",
  "owner-platform",
] as const;

export function newLabels(split: Split): readonly string[] {
  return split === "eval" ? EVAL_LABELS : TRAIN_LABELS;
}

/** Both pools, for the disjointness test. */
export const LABEL_POOLS = { eval: EVAL_LABELS, train: TRAIN_LABELS } as const;
