/**
 * Labels and due dates that jira-edit-fields tasks introduce. Label pools are disjoint between the eval
 * and train splits and from the fixture's own issue labels (which level 2 tasks remove).
 */
import type { Split } from "../define-scenario.ts";

const EVAL_LABELS = [
  "release-blocker",
  "needs-triage",
  "customer-escalation",
  "regression",
  "hotfix-candidate",
  "quick-win",
  "compliance",
  "sla-risk",
] as const;

const TRAIN_LABELS = [
  "needs-design",
  "good-first-issue",
  "docs-needed",
  "ux-debt",
  "partner-request",
  "observability",
  "cleanup",
  "spike",
  "data-quality",
  "migration",
  "legal-review",
  "flaky",
] as const;

export const newLabels = (split: Split): readonly string[] => (split === "eval" ? EVAL_LABELS : TRAIN_LABELS);

/** Both pools, for the disjointness test. */
export const LABEL_POOLS = { eval: EVAL_LABELS, train: TRAIN_LABELS } as const;

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** A due date in 2027 as Jira stores it (yyyy-MM-dd) and as a person writes it ("15 March 2027"). */
export function dueDate(month: number, day: number): { iso: string; words: string } {
  const iso = `2027-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  return { iso, words: `${day} ${MONTHS[month - 1]} 2027` };
}
