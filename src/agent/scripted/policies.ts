/**
 * Scripted policies: deterministic agents used to test rewards. `reference` is the scenario's own
 * solution; most others commit one of the silent failures the paper describes (or a harsher one),
 * derived from the reference's recorded calls; `random` knows nothing of the task (the floor). Their
 * descriptions live in policy-names.ts.
 */

import type { Episode } from "../../env/episode.ts";
import { callViolation } from "../../reward/call-errors.ts";
import type { ViolationCode } from "../../reward/score.ts";
import { AGENT_ACCOUNT_ID, DEFAULT_BASE_URL } from "../../sandbox/fixtures/default-site.ts";
import type { Random } from "../../sandbox/random.ts";
import { allToolNames } from "../../tools/aliases/tool-sets.ts";
import { defaultTools } from "../../tools/catalogue.ts";
import { executeToolCall } from "../../tools/execute-tool.ts";
import type { ToolCallRequest } from "../../tools/tool-call-result.ts";
import { SCRIPTED_POLICY_DESCRIPTIONS, type ScriptedPolicyName } from "./policy-names.ts";
import { randomValue } from "./random-arguments.ts";
import { recordReference, replay, runReference, type Script } from "./replay.ts";

export interface ScriptedPolicy {
  name: ScriptedPolicyName;
  description: string;
  /** Violations its failure must be reported as (empty for the reference). */
  expectedViolations: ViolationCode[];
  /** The calls it makes on this episode (worked out on a scratch copy) and its final message. */
  script(episode: Episode, random: Random): Script;
  /** Plays the episode; returns the final message. */
  play(episode: Episode, random: Random): string;
}

const isWrite = (call: ToolCallRequest) => defaultTools().get(call.name)?.operation.effect === "write";

/** A policy that transforms the recorded reference script. */
function derived(
  name: ScriptedPolicyName,
  expectedViolations: ViolationCode[],
  transform: (script: Script, episode: Episode, random: Random) => Script,
): ScriptedPolicy {
  const script = (episode: Episode, random: Random) =>
    transform(recordReference(episode.scenario, episode.task), episode, random);
  return {
    name,
    description: SCRIPTED_POLICY_DESCRIPTIONS[name],
    expectedViolations,
    script,
    play: (episode, random) => replay(episode, script(episode, random)),
  };
}

const firstWrite = (calls: ToolCallRequest[]) => calls.findIndex(isWrite);

export const SCRIPTED_POLICIES: readonly ScriptedPolicy[] = [
  {
    name: "reference",
    description: SCRIPTED_POLICY_DESCRIPTIONS.reference,
    expectedViolations: [],
    script: (episode) => recordReference(episode.scenario, episode.task),
    play: (episode) => runReference(episode),
  },
  derived("noop", ["missing_mutation"], () => ({
    calls: [],
    final: "Sorry, I cannot do that.",
  })),
  derived("read-only", ["early_stop_after_read"], (s) => ({
    calls: s.calls.slice(0, Math.max(0, firstWrite(s.calls))),
    final: "I have looked at it.",
  })),
  derived("hallucinate", ["hallucinated_tool"], (s) => ({
    ...s,
    calls: s.calls.map((c, i) =>
      i === firstWrite(s.calls) ? { ...c, name: `${c.name.split("_")[0]}_update_everything` } : c,
    ),
  })),
  derived("drop-field", ["dropped_required_field", "invalid_payload"], (s, episode) => {
    const i = firstWrite(s.calls);
    return { ...s, calls: s.calls.map((c, j) => (j === i ? dropField(c, episode) : c)) };
  }),
  derived(
    "duplicate",
    ["duplicate_mutation", "invalid_payload", "collateral_change", "wasted_mutation"],
    (s) => ({
      ...s,
      calls: s.calls.flatMap((c) => (isWrite(c) ? [c, c] : [c])),
    }),
  ),
  derived("skip-validate", [], (s) => ({
    ...s,
    calls: s.calls.filter((c, i) => i >= firstWrite(s.calls) || isWrite(c)),
  })),
  derived("over-budget", ["budget_exceeded"], (s, episode) => {
    const read = s.calls.find((c) => !isWrite(c)) ?? s.calls[0]!;
    const padding = Array.from(
      { length: Math.max(1, episode.expectation.budget + 1 - s.calls.length) },
      () => read,
    );
    return { ...s, calls: [...padding, ...s.calls] };
  }),
  derived("borrowed-args", [], (s, episode, random) => {
    const tools = episode.functionTools().map((t) => t.function.name);
    const calls = Array.from({ length: random.int(1, episode.expectation.budget) }, () => {
      const name = random.pick(tools);
      const borrowed = s.calls.filter((c) => c.name === name);
      return { name, arguments: borrowed.length > 0 ? random.pick(borrowed).arguments : {} };
    });
    return { calls, final: "Done." };
  }),
  derived("random", [], (_s, episode, random) => {
    const tools = episode.functionTools();
    const calls = Array.from({ length: random.int(1, episode.expectation.budget) }, () => {
      const tool = random.pick(tools).function;
      return { name: tool.name, arguments: randomValue(tool.parameters, random) };
    });
    return { calls, final: "Done." };
  }),
];

export function findPolicy(name: string): ScriptedPolicy {
  const policy = SCRIPTED_POLICIES.find((p) => p.name === name);
  if (!policy)
    throw new Error(
      `Unknown scripted policy '${name}' (known: ${SCRIPTED_POLICIES.map((p) => p.name).join(", ")})`,
    );
  return policy;
}

/**
 * Removes one required nested field of a call's arguments: the first leaf (nested ones first) whose
 * removal makes the API reject the call, on a scratch copy of the episode's site, with a 400 that names
 * the missing field (else the first whose removal gives any 400).
 */
function dropField(call: ToolCallRequest, episode: Episode): ToolCallRequest {
  // Leaves first (nested ones before top-level), then whole objects: a reference such as
  // linkIssues' `inwardIssue: {key}` is required as an object, and an emptied one is a 404, not a 400.
  const leaves = [
    ...leafPaths(call.arguments, []).sort((a, b) => Number(b.length > 1) - Number(a.length > 1)),
    ...objectPaths(call.arguments, []),
  ];
  const ctx = { baseUrl: DEFAULT_BASE_URL, accountId: AGENT_ACCOUNT_ID };
  let fallback: ToolCallRequest | undefined;
  for (const path of leaves) {
    const args = structuredClone(call.arguments) as Record<string, unknown>;
    if (!deletePath(args, path)) continue;
    const dropped = { ...call, arguments: args };
    const result = executeToolCall(episode.site.fork(), defaultTools(), dropped, ctx);
    if (result.status !== 400) continue;
    if (callViolation(result, allToolNames())?.code === "dropped_required_field") return dropped;
    fallback ??= dropped;
  }
  return fallback ?? call;
}

function leafPaths(value: unknown, path: string[]): string[][] {
  if (value === null || typeof value !== "object") return path.length > 0 ? [path] : [];
  return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => leafPaths(v, [...path, k]));
}

function objectPaths(value: unknown, path: string[]): string[][] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
  const own = path.length > 0 ? [path] : [];
  return [
    ...own,
    ...Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => objectPaths(v, [...path, k])),
  ];
}

function deletePath(target: Record<string, unknown>, path: string[]): boolean {
  const [head, ...rest] = path;
  if (head === undefined || !(head in target)) return false;
  if (rest.length === 0) {
    if (Array.isArray(target)) target.splice(Number(head), 1);
    else delete target[head];
    return true;
  }
  const child = target[head];
  return typeof child === "object" && child !== null && deletePath(child as Record<string, unknown>, rest);
}
