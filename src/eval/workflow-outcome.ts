/**
 * What the eval metrics need from a workflow episode (a task composed of 2–5 families' steps): its
 * horizon (the number of steps) and, when the score carries per-step progress (`score.progress`), the
 * progress rate and the first step that failed with its failure kind. Single-family records have
 * neither and give no workflow outcome. Records are read from files, so a malformed `steps` or
 * `progress` is treated as absent rather than trusted.
 */
import type { Progress, StepProgress } from "../reward/progress.ts";
import type { EpisodeRecord } from "./episode-record.ts";

/** The first step of a workflow episode that did not hold. */
export interface FirstFailedStep {
  /** 1-based. */
  step: number;
  /** The step's family. */
  scenario: string;
  /** Its first failure kind ("unknown" when the score named none). */
  failure: string;
}

export interface WorkflowOutcome {
  /** Number of steps (2–5 for the workflow families). */
  horizon: number;
  /** Null when the score carries no per-step progress. */
  progress: { rate: number; firstFailed: FirstFailedStep | null } | null;
}

const isStep = (s: unknown): s is StepProgress =>
  typeof s === "object" &&
  s !== null &&
  Number.isInteger((s as StepProgress).step) &&
  typeof (s as StepProgress).holds === "boolean";

function progressOf(value: unknown): WorkflowOutcome["progress"] {
  const p = value as Progress | undefined;
  if (typeof p !== "object" || p === null || typeof p.rate !== "number" || !Number.isFinite(p.rate))
    return null;
  if (!Array.isArray(p.steps) || !p.steps.every(isStep)) return null;
  const failed = [...p.steps].sort((a, b) => a.step - b.step).find((s) => !s.holds);
  return {
    rate: p.rate,
    firstFailed: failed
      ? { step: failed.step, scenario: String(failed.scenario ?? ""), failure: failed.failure ?? "unknown" }
      : null,
  };
}

/**
 * `{ workflow }` for a workflow record, else nothing (spread into the episode's outcome). The horizon is
 * the length of the record's `steps`, or, when a record lacks them, of its `score.progress.steps`.
 */
export function workflowOf(record: EpisodeRecord): { workflow?: WorkflowOutcome } {
  const progress = progressOf(record.score.progress);
  const steps = Array.isArray(record.steps)
    ? record.steps.length
    : ((record.score.progress as Progress | undefined)?.steps?.length ?? 0);
  if (steps === 0 || (!Array.isArray(record.steps) && progress === null)) return {};
  return { workflow: { horizon: steps, progress } };
}
