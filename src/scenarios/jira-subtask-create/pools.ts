/**
 * Sub-task summaries that jira-subtask-create tasks introduce. The eval and train pools are disjoint
 * from each other and from the fixture's own sub-task summaries, so a trained agent never sees an eval
 * summary and a task's summary never already exists on the site.
 */
import type { Split } from "../define-scenario.ts";

const EVAL_SUMMARIES = [
  "Draft the migration checklist",
  "Capture baseline latency metrics",
  "Write the customer-facing FAQ",
  "Verify alert routing to on-call",
  "Prepare the rollback script",
  "Collect sign-off from security",
  "Benchmark the staging environment",
  "Archive the old dashboards",
  "Schedule the go-live announcement",
  "Audit access permissions",
  "Record a demo for stakeholders",
  "Estimate remaining effort",
] as const;

const TRAIN_SUMMARIES = [
  "Update the API reference docs",
  "Add integration test coverage",
  "Remove dead code paths",
  "Confirm the release date with product",
  "Profile memory usage under load",
  "Refresh the test fixtures",
  "Write the migration script",
  "Check licence compatibility",
  "Add a health check endpoint",
  "Set up error budget alerts",
  "Review logging verbosity",
  "Translate the error messages",
  "Create the Grafana panel",
  "Validate the backup restore",
  "Tag the release candidate",
  "Notify the support team",
  "Measure page load time",
  "Add retries to the HTTP client",
  "Update dependency versions",
  "Write acceptance criteria",
  "Design the database index",
  "Document the configuration flags",
  "Run the load test",
  "Fix lint warnings",
  "Add tracing spans",
  "Clean up stale branches",
  "Review the threat model",
  "Prepare release notes draft",
  "Set up the feature toggle",
  "Sync with the design team",
  "Add input validation",
  "Check mobile layout",
  "Rotate the API keys",
  "Upgrade the base image",
  "Write the post-release survey",
  "Plan the data backfill",
] as const;

export function subtaskSummaries(split: Split): readonly string[] {
  return split === "eval" ? EVAL_SUMMARIES : TRAIN_SUMMARIES;
}

/** Both pools, for the disjointness test. */
export const SUMMARY_POOLS = { eval: EVAL_SUMMARIES, train: TRAIN_SUMMARIES } as const;
