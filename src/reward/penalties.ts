/**
 * The violation codes: each one's R3 penalty and what it means. The tables in src/reward/README.md and
 * docs/evaluation.md are generated from VIOLATIONS (src/docs/generate.ts).
 */

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

/** What each violation means, and whether its penalty is charged for each occurrence or once. */
export const VIOLATIONS: Readonly<Record<ViolationCode, { each: boolean; when: string }>> = {
  missing_mutation: {
    each: true,
    when: "an expected entity has no record to judge (never created, updated or deleted)",
  },
  early_stop_after_read: {
    each: true,
    when: "an expected entity has no record to judge and the agent only read (the paper's early stop)",
  },
  wrong_value: { each: true, when: "a judged record's requested field does not hold the expected value" },
  collateral_change: {
    each: true,
    when: "a change nobody asked for: another record, an unrequested field, an extra record",
  },
  duplicate_mutation: { each: true, when: "an extra created record that repeats an expected one" },
  reverted_mutation: { each: true, when: "a change made and later undone" },
  wasted_mutation: {
    each: true,
    when: "a successful write that changed nothing (re-adding a label the page has)",
  },
  invalid_payload: {
    each: true,
    when: "a write the tool refuses before the API (malformed JSON, its own schema), or a 400 that is not a dropped field (a wrong type, a bad value)",
  },
  dropped_required_field: {
    each: true,
    when: 'a write rejected with 400 whose error names a field the payload lacks (absent, null, `{}` or `""`)',
  },
  hallucinated_tool: { each: true, when: "a tool name that exists in no tool set" },
  disallowed_tool: { each: true, when: "a real tool the task does not offer" },
  budget_exceeded: { each: false, when: "more calls than the budget (the extra calls are not executed)" },
  no_final_answer: { each: false, when: "a refusal task ended without a final answer" },
  no_decline: {
    each: false,
    when: "a refusal task's final answer does not decline by the decline rule (names what is missing, says it cannot be done, claims no success)",
  },
};
