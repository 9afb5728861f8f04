/**
 * score(): R = clamp(R1 + R2 − R3, 0, 1) and the state verdict, both derived from one Expectation.
 * R1: each requested field earns its points when the end state holds it and a successful call of the
 * agent set it, whatever operation, tool alias or API version did. R2: a read about a validate record
 * before the first write, a read about a changed record after the last. R3: named violations.
 */
import { diff, type RecordChange } from "../sandbox/diff.ts";
import type { Site } from "../sandbox/site.ts";
import { resolveBindings } from "./bindings.ts";
import { callViolation, type RejectedCall } from "./call-errors.ts";
import { judgeDecline } from "./decline.ts";
import { type CallEffect, repeatedWrites, revertedMutations, setterOf, wastedWrites } from "./effects.ts";
import type { Expectation } from "./expectation.ts";
import { fieldPoints } from "./expectation-rules.ts";
import { PENALTIES, type ViolationCode } from "./penalties.ts";
import type { Progress } from "./progress.ts";
import { type Identity, identities, isDecisiveSearch, readIsAbout } from "./reads.ts";
import { ALL_RULES_ON, type RulesOff, withRulesOff } from "./rules.ts";
import { scoreSteps } from "./step-score.ts";
import { judgeState } from "./verdict.ts";

export type { ViolationCode } from "./penalties.ts";

/** What the reward needs to know about one call on the trace. */
export interface ScoredCall extends RejectedCall {
  /** What a successful write changed on the site (its own diff); empty for reads and failures. */
  changes?: readonly RecordChange[];
}

/** The reward modes, in one place: `paper` (R), `state` (passed as 0/1), `gated` (R if passed, else ≤ 0.5). */
export const REWARD_MODES = ["paper", "state", "gated"] as const;
export type RewardMode = (typeof REWARD_MODES)[number];

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
  /** Workflow tasks: which steps hold at the end (src/reward/progress.ts). */
  progress?: Progress;
}

export interface ScoreInput {
  expectation: Expectation;
  calls: readonly ScoredCall[];
  /** The task's site before the episode, and the episode's site now. */
  initial: Site;
  final: Site;
  /** The reference solution's diff on the task's initial site: the API's defaults and alongside changes. */
  reference: readonly RecordChange[];
  /** The agent's final answer (null when it never gave one). */
  finalMessage?: string | null;
  /** Every tool name of every known tool set: a call to one of them that was not offered is "disallowed". */
  knownTools: ReadonlySet<string>;
  mode?: RewardMode;
  /** Second-pass rules turned off (the reward audit's "before"); none by default. */
  off?: RulesOff;
}

export function score(declared: ScoreInput): Score {
  const net = diff(declared.initial, declared.final);
  // Workflows: bindings name records of the end state; everything below judges the resolved expectation.
  const { expectation: bound, resolved } = resolveBindings(declared.expectation, net);
  const off = declared.off ?? ALL_RULES_ON;
  const input = { ...declared, expectation: withRulesOff(bound, off) };
  const { expectation: x, calls, initial, final, knownTools, mode = "paper" } = input;
  const counted = calls.slice(0, x.budget);
  const effects: CallEffect[] = counted.flatMap((c, index) =>
    c.ok && c.effect === "write" ? [{ index, changes: c.changes ?? [] }] : [],
  );
  const components: Component[] = [];
  const violations: Violation[] = [];
  const add = (code: ViolationCode, message: string) =>
    violations.push({ code, message, penalty: PENALTIES[code] });
  const verdict = judgeState(x, net, input.reference, { metadataFree: !off.has("metadata") });
  const answered = (input.finalMessage ?? "").trim() !== "";

  const steps = x.steps
    ? scoreSteps({
        declared: declared.expectation,
        expectation: x,
        resolved,
        verdict,
        calls: counted,
        effects,
        initial,
        final,
        answered,
        finalMessage: input.finalMessage ?? null,
      })
    : undefined;
  const reads = steps
    ? { components: steps.components, validated: true }
    : r2(
        input,
        counted,
        effects,
        verdict.fields.flatMap((f) => (f.recordId ? [{ table: f.table, id: f.recordId }] : [])),
      );
  // A refusal is earned by looking, and by an answer that declines naming what is missing.
  const answer = off.has("decline-text")
    ? { ok: true, problems: [] }
    : judgeDecline(input.finalMessage, x.refuseNames ?? []);
  const declined =
    x.refuse !== undefined &&
    net.length === 0 &&
    effects.length === 0 &&
    answered &&
    answer.ok &&
    reads.validated;
  if (x.refuse !== undefined) {
    const unchanged = net.length === 0 && effects.length === 0;
    components.push({
      group: "R1",
      label: "decline: nothing changed, after looking, and an answer that declines",
      points: declined ? x.points.fields : 0,
      max: x.points.fields,
      detail: `${unchanged ? "the site is unchanged" : `${effects.length} successful writes`}; ${reads.validated ? "looked first" : "declined without reading what the task names"}; ${answered ? (answer.ok ? "the answer declines" : answer.problems.join(", ")) : "no final answer"} (the task cannot be done: ${x.refuse})`,
    });
    if (!answered) add("no_final_answer", "The task must be declined with a final answer; there was none.");
    else if (!answer.ok)
      add("no_decline", `The final answer does not decline the task: ${answer.problems.join("; ")}.`);
    if (answered && unchanged && !reads.validated)
      add("missing_mutation", "Declined without reading what the task names: the refusal is a guess.");
  } else {
    for (const f of verdict.fields) {
      const max = fieldPoints(x, f.key);
      const setter = f.recordId === null ? undefined : setterOf(effects, f.table, f.recordId, f.field);
      const ok = f.ok && setter !== undefined;
      components.push({
        group: "R1",
        label: `${f.entity.ref}: ${f.field}`,
        points: ok ? max : 0,
        max,
        detail: `${f.detail}${ok ? `, set by call ${setter!.index + 1}` : f.ok ? ", but no call of the agent set it" : ""}`,
      });
      if (f.recordId !== null && !f.ok) add("wrong_value", `${f.entity.label}: ${f.detail}.`);
    }
    for (const entity of verdict.missing) {
      const writes = counted.filter((c) => c.effect === "write").length;
      const onlyReads = counted.length > 0 && counted.every((c) => c.effect === "read" && c.ok);
      add(
        onlyReads ? "early_stop_after_read" : "missing_mutation",
        `Required end state not reached (${entity.label}); ${onlyReads ? "the agent stopped after reading" : writes > 0 ? `none of ${writes} write attempts did it` : "it was never attempted"}.`,
      );
    }
  }
  components.push(...reads.components);

  for (const call of counted) {
    const v = callViolation(call, knownTools);
    if (v) violations.push(v);
  }
  if (calls.length > x.budget)
    add("budget_exceeded", `${calls.length} tool calls, over the budget of ${x.budget}.`);
  for (const d of verdict.duplicates) add("duplicate_mutation", `Duplicate: ${d.message}.`);
  // A repeat the API refused with a 400 is already labelled above; other refusals (409, 404) are not.
  for (const i of repeatedWrites(counted).filter((i) => !callViolation(counted[i]!, knownTools)))
    add("duplicate_mutation", `Call ${i + 1} (${counted[i]!.name}) repeats an earlier successful write.`);
  for (const c of verdict.collateral)
    add("collateral_change", `Change the task did not ask for: ${c.message}.`);
  for (const w of wastedWrites(effects))
    add("wasted_mutation", `Call ${w.index + 1} (${counted[w.index]!.name}) succeeded but changed nothing.`);
  const reverts = revertedMutations(x, effects, net);
  for (const r of reverts) add("reverted_mutation", `Made and reverted: ${r.message}.`);

  if (steps && !steps.declined && !answered)
    add("no_final_answer", "A step cannot be done and must be declined in a final answer; there was none.");
  const passed =
    x.refuse !== undefined ? declined : verdict.passed && reverts.length === 0 && (steps?.declined ?? true);
  const gained = components.reduce((sum, c) => sum + c.points, 0);
  const lost = violations.reduce((sum, v) => sum + v.penalty, 0);
  const paperReward = round(Math.min(1, Math.max(0, gained - lost)));
  const reward =
    mode === "paper"
      ? paperReward
      : mode === "state"
        ? passed
          ? 1
          : 0
        : passed
          ? paperReward
          : Math.min(paperReward, 0.5);
  const result = { reward, mode, paperReward, passed, components, violations };
  return { ...result, explanation: explain(result), ...(steps ? { progress: steps.progress } : {}) };
}

const VALIDATE = "validate before mutating";

/** R2: validate before the first successful write, verify after the last (only when one happened; a refusal's reads validate). */
function r2(
  input: ScoreInput,
  calls: readonly ScoredCall[],
  effects: readonly CallEffect[],
  mutated: { table: Parameters<Site["get"]>[0]; id: string }[],
): { components: Component[]; validated: boolean } {
  const x = input.expectation;
  const refusal = x.refuse !== undefined;
  const first = effects[0]?.index ?? (refusal ? calls.length : -1);
  const last = effects.at(-1)?.index ?? calls.length;
  const reads = (from: number, to: number, ids: Identity[]) =>
    ids.length > 0 &&
    calls
      .slice(Math.max(0, from), Math.max(0, to))
      .some((c) => c.ok && c.effect === "read" && readIsAbout(c, ids));
  const validateIds = x.validate.flatMap((ref) => identities(input.initial, ref));
  // A deleted record is known by its ids on the initial site (a removed label: its page).
  const mutatedIds = mutated.flatMap((ref) =>
    identities(input.final.get(ref.table, ref.id) ? input.final : input.initial, ref),
  );
  // A search that names what is missing and finds nothing is the evidence a careful decline gives.
  const decisive = (c: ScoredCall) =>
    !input.off?.has("decisive-search") &&
    c.ok &&
    c.effect === "read" &&
    isDecisiveSearch(c, x.refuseNames ?? []);
  const validated =
    first >= 0 && (reads(0, first, validateIds) || (refusal && calls.slice(0, first).some(decisive)));
  const verified = refusal ? validated : effects.length > 0 && reads(last + 1, calls.length, mutatedIds);
  const names = x.validate.map((r) => `${r.table} ${r.id}`).join(" or ");
  const components: Component[] = [
    {
      group: "R2",
      label: VALIDATE,
      points: validated ? x.points.validate : 0,
      max: x.points.validate,
      detail: `${validated ? "read" : "did not read"} ${names || "a target record"} before the first write`,
    },
    {
      group: "R2",
      label: "verify after mutating",
      points: verified ? x.points.verify : 0,
      max: x.points.verify,
      detail: `${verified ? "read" : "did not read"} a changed record after the last write`,
    },
  ];
  return { components, validated };
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
