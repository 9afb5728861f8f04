/** The R3 penalties: one per violation code, documented in src/reward/README.md. */

export type ViolationCode =
  | "missing_mutation"
  | "early_stop_after_read"
  | "wrong_value"
  | "dropped_required_field"
  | "invalid_payload"
  | "duplicate_mutation"
  | "wasted_mutation"
  | "reverted_mutation"
  | "hallucinated_tool"
  | "disallowed_tool"
  | "budget_exceeded"
  | "collateral_change"
  | "no_final_answer"
  | "no_decline";

export const PENALTIES: Readonly<Record<ViolationCode, number>> = {
  missing_mutation: 0.2,
  early_stop_after_read: 0.2,
  wrong_value: 0.25,
  dropped_required_field: 0.1,
  invalid_payload: 0.1,
  duplicate_mutation: 0.25,
  wasted_mutation: 0.1,
  reverted_mutation: 0.25,
  hallucinated_tool: 0.1,
  disallowed_tool: 0.1,
  budget_exceeded: 0.2,
  collateral_change: 0.25,
  no_final_answer: 0.2,
  no_decline: 0.2,
};
