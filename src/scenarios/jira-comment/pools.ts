/**
 * Comment texts that jira-comment tasks introduce: disjoint between the eval and train splits and from
 * the fixture's own comments, so a trained agent never sees an eval text.
 */
import type { Split } from "../define-scenario.ts";

const EVAL_COMMENTS = [
  "Verified the fix on staging; QA can start on Monday.",
  "The vendor confirmed the root cause in their ticket.",
  "Moving the rollout to next sprint because of the freeze.",
  "Customer impact is limited to the EU region.",
  "Design review is booked for Thursday afternoon.",
  "Logs from the last incident are attached to the postmortem.",
  "Waiting on legal before we ship this change.",
  "Benchmarks show a 12% improvement after the patch.",
  "Security signed off on the new token scopes.",
  "Please double-check the migration on a copy of production first.",
  "The flaky step only fails on the ARM runners.",
  "Support has three more reports of this since Friday.",
] as const;

const TRAIN_COMMENTS = [
  "Reproduced locally with the latest build.",
  "Handing this over after today's stand-up.",
  "The fix is behind a feature flag for now.",
  "Added a regression test for this case.",
  "Docs are updated in the developer portal.",
  "This needs a product decision before we continue.",
  "Rolled back the config change at 14:05.",
  "Metrics look stable after the deploy.",
  "Blocked until the API keys are rotated.",
  "Tested on Android 14 and iOS 17.",
  "The root cause was an expired certificate.",
  "Pairing with the platform team tomorrow.",
  "Estimate is two days including review.",
  "Translations arrive at the end of the week.",
  "Cost drops by about 8% with the smaller instances.",
  "Closing the loop with the customer today.",
  "Old dashboards will be archived after this.",
  "The alert fired twice during the maintenance window.",
  "Release notes mention this under known issues.",
  "Canary has been healthy for 48 hours.",
] as const;

export const commentTexts = (split: Split): readonly string[] =>
  split === "eval" ? EVAL_COMMENTS : TRAIN_COMMENTS;

/** Both pools, for the disjointness test. */
export const COMMENT_POOLS = { eval: EVAL_COMMENTS, train: TRAIN_COMMENTS } as const;
