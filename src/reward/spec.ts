/**
 * The reward spec a scenario declares for one task: which mutations must happen with which argument
 * values (R1), which reads count as validating before and verifying after them (R2), the penalties
 * (R3), the call budget, and the expected end state. Checks name operations and REST payload paths,
 * never tool names, so every tool alias set scores the same.
 */
import type { Matcher } from "./matchers.ts";
import type { StateExpectation } from "./state.ts";

/** The operation input a call mapped to: REST path/query params and body. */
export interface CallInput {
  params: Record<string, unknown>;
  body: unknown;
}

/** One expected argument value on a mutating call (R1). */
export interface ArgCheck {
  /** What the argument is, in words (e.g. "sub-task issue type id"). */
  label: string;
  /** Paths into the call input, e.g. `body.fields.issuetype.id`; the first one present is checked. */
  paths: string[];
  expected: Matcher;
  points: number;
}

export interface MutationSpec {
  label: string;
  operationId: string;
  /** Picks the calls that target the right record (e.g. the right issue); all calls of the operation when absent. */
  target?: (input: CallInput) => boolean;
  args: ArgCheck[];
  /** How many successful calls are expected (more are duplicates). Default 1. */
  count?: number;
}

/** Reads that count for R2: any successful call of these operations that satisfies `target`. */
export interface ReadSpec {
  label: string;
  operationIds: string[];
  target?: (input: CallInput) => boolean;
}

export interface Penalties {
  missingMutation: number;
  invalidPayload: number;
  duplicateMutation: number;
  hallucinatedTool: number;
  disallowedTool: number;
  budgetExceeded: number;
  collateralChange: number;
}

/** Defaults, documented in src/reward/README.md; a scenario may override any of them. */
export const DEFAULT_PENALTIES: Penalties = {
  missingMutation: 0.2,
  invalidPayload: 0.1,
  duplicateMutation: 0.25,
  hallucinatedTool: 0.1,
  disallowedTool: 0.1,
  budgetExceeded: 0.2,
  collateralChange: 0.25,
};

export interface RewardSpec {
  mutations: MutationSpec[];
  validate: { points: number; reads: ReadSpec[] };
  verify: { points: number; reads: ReadSpec[] };
  /** Most tool calls allowed; calls beyond it are a violation (the rollout loop also stops there). */
  budget: number;
  penalties?: Partial<Penalties>;
  state: StateExpectation[];
}

/** The most R1 + R2 can give: a scenario's constants must make this exactly 1. */
export function maxPoints(spec: RewardSpec): number {
  const r1 = spec.mutations.reduce((sum, m) => sum + m.args.reduce((s, a) => s + a.points, 0), 0);
  return r1 + spec.validate.points + spec.verify.points;
}

/** An ArgCheck in one line. */
export const arg = (
  label: string,
  paths: string | string[],
  expected: Matcher,
  points: number,
): ArgCheck => ({
  label,
  paths: Array.isArray(paths) ? paths : [paths],
  expected,
  points,
});
