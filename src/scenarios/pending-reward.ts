/**
 * Placeholder for `reward()` in families built only on expectations, until the reward engine derives
 * the score from `expect()` (issue 9). Removed when the engine lands; calling it is a bug.
 */
import type { RewardSpec } from "../reward/spec.ts";

export function pendingReward(): RewardSpec {
  throw new Error("This family is scored from its expectation (expect()); the reward engine derives it.");
}
