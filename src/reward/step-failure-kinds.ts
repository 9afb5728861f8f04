/**
 * Failure kinds a workflow step can report (`score.progress.steps[].failure`) besides the violation
 * codes of penalties.ts (`missing_mutation`, `wrong_value`, `collateral_change`, `no_final_answer`):
 * listed here with their meaning, so docs/evaluation.md can say what eval's first-failed-step lines print.
 * StepFailure is the type step-score.ts gives a step's failure, so a new kind cannot skip this list.
 */
import type { ViolationCode } from "./penalties.ts";

export const STEP_FAILURE_KINDS = {
  unhonoured_binding:
    "a later step's record points at some record, not the one an earlier step made (e.g. the link goes to another issue than the one the agent created)",
} as const;

/** What a failing workflow step reports: a violation code or one of the kinds above. */
export type StepFailure = ViolationCode | keyof typeof STEP_FAILURE_KINDS;
