/**
 * Per-step progress of a workflow episode (a task composed of several families' steps): which steps'
 * parts of the composed expectation hold at the end, and the share that do. Carried on the Score as
 * `progress` (absent on single-family tasks) and stored in episodes.jsonl as `score.progress`.
 */

/** One step of a workflow and whether its part of the expectation holds at the end. */
export interface StepProgress {
  /** 1-based position of the step in the workflow. */
  step: number;
  /** The scenario id of the step's family. */
  scenario: string;
  holds: boolean;
  /** The first failure kind of the step when it does not hold (a finding kind or violation code); null when it holds. */
  failure: string | null;
}

/** Every step's progress, in order, and `rate` = holding steps / steps, in [0, 1]. */
export interface Progress {
  steps: StepProgress[];
  rate: number;
}
