/**
 * The per-step parts of a workflow's score (an Expectation with `steps`): R2 judged step by step (a read
 * about the step's validate records before the first call that set one of its fields, a read about its
 * changed records after the last), the decline of a step that cannot be done (a final answer, after a
 * read of what it names, with its records untouched), and the progress: which steps hold at the end and
 * the first failure kind of each that does not.
 */
import type { Site } from "../sandbox/site.ts";
import type { Resolved } from "./bindings.ts";
import { bindingsUsed } from "./bindings.ts";
import { judgeStepDecline } from "./decline.ts";
import { type CallEffect, setterOf } from "./effects.ts";
import type { EntityRef, Expectation, ExpectationStep } from "./expectation.ts";
import type { Progress, StepProgress } from "./progress.ts";
import { identities, isDecisiveSearch, readIsAbout } from "./reads.ts";
import type { Component, ScoredCall } from "./score.ts";
import type { StepFailure } from "./step-failure-kinds.ts";
import type { StateVerdict } from "./verdict.ts";

export interface StepScoreInput {
  /** The expectation as declared, with its bindings resolved, and the bindings. */
  declared: Expectation;
  expectation: Expectation;
  resolved: Resolved;
  verdict: StateVerdict;
  calls: readonly ScoredCall[];
  effects: readonly CallEffect[];
  initial: Site;
  final: Site;
  answered: boolean;
  /** The agent's final answer (a declined step is judged on it by the decline rule). */
  finalMessage: string | null;
}

export interface StepScore {
  components: Component[];
  /** Every step that cannot be done was declined. */
  declined: boolean;
  progress: Progress;
}

export function scoreSteps(input: StepScoreInput): StepScore {
  const steps = input.expectation.steps ?? [];
  const components: Component[] = [];
  const progress: StepProgress[] = [];
  let declined = true;
  steps.forEach((step, i) => {
    const judged = judgeStep(input, step, i + 1);
    components.push(...judged.components);
    if (step.refuse !== undefined && !judged.holds) declined = false;
    progress.push({ step: i + 1, scenario: step.scenario, holds: judged.holds, failure: judged.failure });
  });
  const holding = progress.filter((p) => p.holds).length;
  return {
    components,
    declined,
    progress: { steps: progress, rate: steps.length === 0 ? 0 : holding / steps.length },
  };
}

interface JudgedStep {
  components: Component[];
  holds: boolean;
  failure: StepFailure | null;
}

function judgeStep(input: StepScoreInput, step: ExpectationStep, n: number): JudgedStep {
  const { calls, effects, verdict } = input;
  const results = verdict.fields.filter((f) => step.keys.includes(f.key));
  const setters = results.flatMap((f) => {
    const s = f.recordId === null ? undefined : setterOf(effects, f.table, f.recordId, f.field);
    return s ? [s.index] : [];
  });
  const refusal = step.refuse !== undefined;
  // The step's first write: the first successful write that changed one of its fields on an existing
  // record (a transition in two hops starts at the first hop, though the second sets the status), else
  // the call that set it (a create; a field folded into another step's create is set by its update).
  const touching = results.flatMap((f) => {
    const top = f.field.split(".")[0]!;
    const e = effects.find((x) =>
      x.changes.some(
        (c) => c.kind === "updated" && c.table === f.table && c.id === f.recordId && c.fields.includes(top),
      ),
    );
    return e ? [e.index] : [];
  });
  const first = refusal ? calls.length : setters.length > 0 ? Math.min(...setters, ...touching) : -1;
  const last = setters.length > 0 ? Math.max(...setters) : calls.length;
  const about = (from: number, to: number, refs: EntityRef[]) => {
    const ids = refs.flatMap((ref) =>
      identities(input.final.get(ref.table, ref.id) ? input.final : input.initial, ref),
    );
    return (
      ids.length > 0 &&
      calls
        .slice(Math.max(0, from), Math.max(0, to))
        .some((c) => c.ok && c.effect === "read" && readIsAbout(c, ids))
    );
  };
  // A declined step is also validated by a search that names what is missing and finds nothing.
  const decisive = calls.some(
    (c) => refusal && c.ok && c.effect === "read" && isDecisiveSearch(c, step.refuseNames ?? []),
  );
  const validated = first >= 0 && (about(0, first, step.validate) || decisive);
  const changed = results.flatMap((f) => (f.recordId ? [{ table: f.table, id: f.recordId }] : []));
  const verified = !refusal && setters.length > 0 && about(last + 1, calls.length, changed);
  const components: Component[] = [
    {
      group: "R2",
      label: `step ${n}: validate before mutating`,
      points: validated ? step.points.validate : 0,
      max: step.points.validate,
      detail: `${validated ? "read" : "did not read"} ${step.validate.map((r) => `${r.table} ${r.id}`).join(" or ") || "a target record"} before ${refusal ? "declining" : "the step's first write"}`,
    },
  ];
  if (!refusal)
    components.push({
      group: "R2",
      label: `step ${n}: verify after mutating`,
      points: verified ? step.points.verify : 0,
      max: step.points.verify,
      detail: `${verified ? "read" : "did not read"} a record the step changed after its last write`,
    });
  if (refusal) return declineStep(input, step, n, validated, components);
  const failing = results.find((f) => !f.ok);
  if (!failing) return { components, holds: true, failure: null };
  // Unhonoured: a field bound to an earlier step's record is wrong (the link points at another issue), or
  // the step's record is missing while one of its kind was made elsewhere.
  const bound = isBoundStep(input, step);
  const offTarget = verdict.collateral.some((c) => c.change.table === failing.table);
  const boundField = results.some((f) => !f.ok && f.recordId !== null && isBoundField(input, f.key));
  const failure =
    bound && (boundField || (offTarget && failing.recordId === null))
      ? "unhonoured_binding"
      : failing.recordId === null
        ? "missing_mutation"
        : "wrong_value";
  return { components, holds: false, failure };
}

/**
 * A step that cannot be done holds when the final answer declines it by the decline rule (naming what is
 * missing, saying it cannot be done, claiming no success about it), after a read, with its records untouched.
 */
function declineStep(
  input: StepScoreInput,
  step: ExpectationStep,
  n: number,
  validated: boolean,
  components: Component[],
): JudgedStep {
  const touched = input.verdict.collateral.some((c) =>
    step.validate.some((r) => r.table === c.change.table && r.id === c.change.id),
  );
  const answer = judgeStepDecline(input.finalMessage, step.refuseNames ?? []);
  const declined = input.answered && answer.ok;
  const holds = declined && validated && !touched;
  components.unshift({
    group: "R1",
    label: `step ${n}: decline what cannot be done`,
    points: holds ? step.points.decline : 0,
    max: step.points.decline,
    detail: `${input.answered ? (answer.ok ? "the answer declines it" : answer.problems.join(", ")) : "no final answer"}; ${validated ? "looked first" : "declined without reading what the step names"}; ${touched ? "changed what it names" : "left it unchanged"} (it cannot be done: ${step.refuse})`,
  });
  const failure = holds
    ? null
    : !input.answered
      ? "no_final_answer"
      : touched
        ? "collateral_change"
        : !answer.ok
          ? "no_decline"
          : "missing_mutation";
  return { components, holds, failure };
}

/** A step whose fields name a binding, or that writes to a record an earlier step creates. */
function isBoundStep(input: StepScoreInput, step: ExpectationStep): boolean {
  return input.declared.entities.some((e) => {
    const mine = step.keys.some((k) => k.startsWith(`${e.ref}.`));
    if (!mine) return false;
    if (bindingsUsed(e).length > 0) return true;
    if (e.kind !== "create" || e.as === undefined) return false;
    const owner = input.declared.steps?.find((s) => s.keys.some((k) => k.startsWith(`${e.ref}.`)));
    return owner?.scenario !== step.scenario || owner.keys !== step.keys;
  });
}

/** Whether the declared field of this `<ref>.<field>` key names a record an earlier step creates. */
function isBoundField(input: StepScoreInput, key: string): boolean {
  return input.declared.entities.some((e) => {
    if (e.kind === "delete" || !key.startsWith(`${e.ref}.`)) return false;
    const v = e.fields[key.slice(e.ref.length + 1)];
    return v !== undefined && ("bound" in v || "fill" in v);
  });
}
