/**
 * Per-step progress of a workflow episode (the contract with src/eval): which steps' parts of the
 * composed expectation hold at the end, and the first failure kind of each step that does not.
 */

export interface StepProgress {
  /** 1-based. */
  step: number;
  /** The step family's scenario id. */
  scenario: string;
  holds: boolean;
  /** The first failure kind when the step does not hold (a verdict finding kind or a violation code); null when it holds. */
  failure: string | null;
}

export interface Progress {
  steps: StepProgress[];
  /** Holding steps / steps, in [0, 1]. */
  rate: number;
}
