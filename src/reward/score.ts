/**
 * score(): R = clamp(R1 + R2 − R3, 0, 1) from the trace and the task's expected values, the state
 * verdict from the site diff, and the reward for the chosen mode — every component with its points
 * and every violation named in words.
 */
import type { RecordChange } from "../sandbox/diff.ts";
import { readPath } from "./matchers.ts";
import {
  type CallInput,
  DEFAULT_PENALTIES,
  type MutationSpec,
  type Penalties,
  type ReadSpec,
  type RewardSpec,
} from "./spec.ts";
import { describeChange, verifyState } from "./state.ts";

/** What the reward needs to know about one call on the trace. */
export interface ScoredCall {
  name: string;
  operationId: string | null;
  effect: "read" | "write" | null;
  input: CallInput | null;
  status: number | null;
  ok: boolean;
  errorType: string | null;
}

export type RewardMode = "paper" | "state" | "gated";
export const REWARD_MODES: readonly RewardMode[] = ["paper", "state", "gated"];

export type ViolationCode =
  | "missing_mutation"
  | "early_stop_after_read"
  | "dropped_required_field"
  | "invalid_payload"
  | "duplicate_mutation"
  | "hallucinated_tool"
  | "disallowed_tool"
  | "budget_exceeded"
  | "collateral_change"
  | "state_mismatch";

export interface Component {
  group: "R1" | "R2";
  label: string;
  points: number;
  max: number;
  detail: string;
}

export interface Violation {
  code: ViolationCode;
  message: string;
  penalty: number;
}

export interface Score {
  /** The reward in the requested mode. */
  reward: number;
  mode: RewardMode;
  /** The paper's R, whatever the mode. */
  paperReward: number;
  passed: boolean;
  components: Component[];
  violations: Violation[];
  explanation: string;
}

export interface ScoreInput {
  spec: RewardSpec;
  calls: readonly ScoredCall[];
  changes: readonly RecordChange[];
  /** Every tool name of every known tool set: a call to one of them that was not offered is "disallowed". */
  knownTools: ReadonlySet<string>;
  mode?: RewardMode;
}

export function score({ spec, calls, changes, knownTools, mode = "paper" }: ScoreInput): Score {
  const penalties: Penalties = { ...DEFAULT_PENALTIES, ...spec.penalties };
  const components: Component[] = [];
  const violations: Violation[] = [];
  const counted = calls.slice(0, spec.budget);
  const mutationIndexes: number[] = [];

  for (const mutation of spec.mutations) {
    const hits = successfulCalls(counted, mutation);
    mutationIndexes.push(...hits.map(([i]) => i));
    components.push(
      ...argComponents(
        mutation,
        hits.map(([, c]) => c),
      ),
    );
    const expected = mutation.count ?? 1;
    if (hits.length === 0) violations.push(missingViolation(mutation, counted, penalties));
    for (let extra = expected; extra < hits.length; extra++) {
      violations.push({
        code: "duplicate_mutation",
        message: `${mutation.label}: ${hits.length} successful ${mutation.operationId} calls where ${expected} expected.`,
        penalty: penalties.duplicateMutation,
      });
    }
  }
  components.push(...structureComponents(spec, counted, mutationIndexes));

  for (const call of counted) {
    if (call.errorType === "unknown_tool") {
      const code = knownTools.has(call.name) ? "disallowed_tool" : "hallucinated_tool";
      const message =
        code === "disallowed_tool"
          ? `Called '${call.name}', a tool this task does not offer.`
          : `Called '${call.name}', a tool that does not exist.`;
      violations.push({
        code,
        message,
        penalty: code === "disallowed_tool" ? penalties.disallowedTool : penalties.hallucinatedTool,
      });
    } else if (call.effect === "write" && call.status === 400) {
      const dropped = droppedField(spec, call);
      violations.push({
        code: dropped ? "dropped_required_field" : "invalid_payload",
        message: dropped
          ? `${call.operationId} rejected (400): required argument ${dropped} missing.`
          : `${call.operationId} rejected as an invalid payload (400).`,
        penalty: penalties.invalidPayload,
      });
    }
  }
  if (calls.length > spec.budget) {
    violations.push({
      code: "budget_exceeded",
      message: `${calls.length} tool calls, over the budget of ${spec.budget}.`,
      penalty: penalties.budgetExceeded,
    });
  }
  const verdict = verifyState(spec.state, changes);
  for (const change of verdict.collateral) {
    violations.push({
      code: "collateral_change",
      message: `Change the task did not ask for: ${describeChange(change)}.`,
      penalty: penalties.collateralChange,
    });
  }
  for (const label of verdict.missing)
    violations.push({ code: "state_mismatch", message: `End state: not satisfied: ${label}.`, penalty: 0 });

  const gained = components.reduce((sum, c) => sum + c.points, 0);
  const lost = violations.reduce((sum, v) => sum + v.penalty, 0);
  const paperReward = round(Math.min(1, Math.max(0, gained - lost)));
  const reward =
    mode === "paper"
      ? paperReward
      : mode === "state"
        ? verdict.passed
          ? 1
          : 0
        : verdict.passed
          ? paperReward
          : Math.min(paperReward, 0.5);
  const result = { reward, mode, paperReward, passed: verdict.passed, components, violations };
  return { ...result, explanation: explain(result) };
}

function successfulCalls(calls: readonly ScoredCall[], mutation: MutationSpec): [number, ScoredCall][] {
  return calls
    .map((c, i) => [i, c] as [number, ScoredCall])
    .filter(
      ([, c]) =>
        c.ok &&
        c.operationId === mutation.operationId &&
        c.input &&
        (!mutation.target || mutation.target(c.input)),
    );
}

/** R1 for one mutation: the best-matching successful call earns the points of each correct argument. */
function argComponents(mutation: MutationSpec, hits: ScoredCall[]): Component[] {
  const argValue = (call: ScoredCall, paths: string[]) => {
    for (const path of paths) {
      const value = readPath(call.input, path);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  const scoreOf = (call: ScoredCall) =>
    mutation.args.reduce((s, a) => s + (a.expected.test(argValue(call, a.paths)) ? a.points : 0), 0);
  const best = hits.reduce<ScoredCall | undefined>(
    (b, c) => (b === undefined || scoreOf(c) > scoreOf(b) ? c : b),
    undefined,
  );
  return mutation.args.map((a) => {
    const value = best ? argValue(best, a.paths) : undefined;
    const ok = best !== undefined && a.expected.test(value);
    const detail =
      best === undefined
        ? `no successful ${mutation.operationId} call`
        : `${a.paths[0]} = ${JSON.stringify(value) ?? "missing"} (${ok ? "ok" : "expected a value that"} ${a.expected.describe})`;
    return {
      group: "R1" as const,
      label: `${mutation.label}: ${a.label}`,
      points: ok ? a.points : 0,
      max: a.points,
      detail,
    };
  });
}

function structureComponents(
  spec: RewardSpec,
  calls: readonly ScoredCall[],
  mutationIndexes: number[],
): Component[] {
  const first = Math.min(...mutationIndexes);
  const last = Math.max(...mutationIndexes);
  const any = mutationIndexes.length > 0;
  const readIn = (reads: ReadSpec[], from: number, to: number) =>
    calls
      .slice(from, to)
      .some(
        (c) =>
          c.ok &&
          c.effect === "read" &&
          c.input &&
          reads.some(
            (r) => r.operationIds.includes(c.operationId ?? "") && (!r.target || r.target(c.input!)),
          ),
      );
  const validated = any && readIn(spec.validate.reads, 0, first);
  const verified = any && readIn(spec.verify.reads, last + 1, calls.length);
  const names = (reads: ReadSpec[]) => reads.map((r) => r.label).join(" or ");
  return [
    {
      group: "R2",
      label: "validate before mutating",
      points: validated ? spec.validate.points : 0,
      max: spec.validate.points,
      detail: `${validated ? "read" : "did not read"} ${names(spec.validate.reads)} before the first mutation`,
    },
    {
      group: "R2",
      label: "verify after mutating",
      points: verified ? spec.verify.points : 0,
      max: spec.verify.points,
      detail: `${verified ? "read" : "did not read"} ${names(spec.verify.reads)} after the last mutation`,
    },
  ];
}

function missingViolation(
  mutation: MutationSpec,
  calls: readonly ScoredCall[],
  penalties: Penalties,
): Violation {
  const attempted = calls.some((c) => c.operationId === mutation.operationId);
  const onlyReads = calls.length > 0 && calls.every((c) => c.effect === "read" && c.ok);
  const code = onlyReads ? "early_stop_after_read" : "missing_mutation";
  const why = attempted
    ? "every attempt was rejected"
    : onlyReads
      ? "the agent stopped after reading"
      : "it was never attempted";
  return {
    code,
    message: `Required mutation missing: ${mutation.label} (${mutation.operationId}); ${why}.`,
    penalty: penalties.missingMutation,
  };
}

/** The first R1 argument a rejected write left out, if the rejection is explained by a dropped field. */
function droppedField(spec: RewardSpec, call: ScoredCall): string | null {
  for (const mutation of spec.mutations) {
    if (mutation.operationId !== call.operationId) continue;
    for (const a of mutation.args)
      if (a.paths.every((p) => readPath(call.input, p) === undefined)) return a.paths[0]!;
  }
  return null;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

function explain(s: Omit<Score, "explanation">): string {
  const lines = [
    `reward ${s.reward.toFixed(3)} (${s.mode}); R = ${s.paperReward.toFixed(3)}; state ${s.passed ? "passed" : "failed"}`,
  ];
  for (const c of s.components)
    lines.push(
      `  ${c.group} ${c.points > 0 ? "+" : " "}${c.points.toFixed(3)}/${c.max.toFixed(3)} ${c.label}: ${c.detail}`,
    );
  for (const v of s.violations) lines.push(`  R3 -${v.penalty.toFixed(3)} [${v.code}] ${v.message}`);
  return lines.join("\n");
}
