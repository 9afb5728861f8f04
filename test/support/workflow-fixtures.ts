/**
 * Test support: hand-built workflow episode records (the stored form a workflow family's episode takes:
 * `steps` with each step's family, and `score.progress` with each step's verdict), so horizon metrics,
 * reports and comparisons are tested without running rollouts.
 */
import type { EpisodeRecord } from "../../src/eval/episode-record.ts";
import type { Progress } from "../../src/reward/progress.ts";
import { makeRecord, type TraceSpec } from "./trace-fixtures.ts";

export interface WorkflowSpec extends TraceSpec {
  /** Each step's family, in order. */
  steps: string[];
  /** Per step: true when it holds, else its failure kind (default: every step holds). */
  verdicts?: (true | string)[];
  /** Leave `score.progress` out (a score without per-step progress). */
  noProgress?: boolean;
}

export function makeWorkflowRecord(spec: WorkflowSpec): EpisodeRecord {
  const verdicts = spec.verdicts ?? spec.steps.map((): true => true);
  const held = verdicts.filter((v) => v === true).length;
  const progress: Progress = {
    steps: spec.steps.map((scenario, i) => ({
      step: i + 1,
      scenario,
      holds: verdicts[i] === true,
      failure: verdicts[i] === true ? null : String(verdicts[i]),
    })),
    rate: held / spec.steps.length,
  };
  const record = makeRecord({ passed: held === spec.steps.length, ...spec });
  return {
    ...record,
    steps: spec.steps,
    score: { ...record.score, ...(spec.noProgress ? {} : { progress }) },
  };
}

/** Scenario ids of the fixtures (the workflow scenario and the step families need not be registered). */
export const WORKFLOW_IDS = {
  W: "workflow-jira-v1",
  A: "jira-transition-v1",
  CREATE: "jira-issue-create-v1",
  ASSIGN: "jira-assign-v1",
  PAGE: "confluence-page-update-v1",
} as const;
const { W, A, CREATE, ASSIGN, PAGE } = WORKFLOW_IDS;
const ERROR = { type: "rate_limited" as const, message: "429", status: 429 };

/** Through JSON, as episodes.jsonl stores them. */
const stored = (r: EpisodeRecord): EpisodeRecord => JSON.parse(JSON.stringify(r));

/**
 * A small mixed run: five scored workflow episodes of horizons 2 and 3 (one of each failure position),
 * a horizon-3 provider error, and two single-family episodes; stored through JSON as episodes.jsonl is.
 */
export const workflowRun = (): EpisodeRecord[] =>
  [
    makeWorkflowRecord({ scenario: W, index: 0, sample: 0, reward: 1, steps: [CREATE, ASSIGN] }),
    makeWorkflowRecord({
      scenario: W,
      index: 0,
      sample: 1,
      reward: 0.6,
      steps: [CREATE, ASSIGN],
      verdicts: [true, "wrong_value"],
    }),
    makeWorkflowRecord({
      scenario: W,
      index: 1,
      sample: 0,
      reward: 0,
      steps: [ASSIGN, PAGE],
      verdicts: ["missing_mutation", "missing_mutation"],
    }),
    makeWorkflowRecord({
      scenario: W,
      index: 2,
      sample: 0,
      reward: 0.7,
      steps: [CREATE, ASSIGN, PAGE],
      verdicts: [true, true, "unhonoured_binding"],
    }),
    makeWorkflowRecord({
      scenario: W,
      index: 3,
      sample: 0,
      reward: 0.5,
      steps: [CREATE, PAGE, ASSIGN],
      verdicts: [true, "collateral_change", true],
    }),
    // A provider error says nothing about the model: left out of every figure.
    makeWorkflowRecord({
      scenario: W,
      index: 3,
      sample: 1,
      reward: 0,
      steps: [CREATE, PAGE, ASSIGN],
      verdicts: ["missing_mutation", "missing_mutation", "missing_mutation"],
      error: ERROR,
    }),
    makeRecord({ scenario: A, index: 0, sample: 0, reward: 1 }),
    makeRecord({ scenario: A, index: 0, sample: 1, reward: 0, passed: false }),
  ].map(stored);
