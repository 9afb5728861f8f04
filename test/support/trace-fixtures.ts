/**
 * Test support: hand-built EpisodeTrace records (a realistic conversation with one tool call, a chosen
 * reward, verdict and violations), so metrics, logs and reports are tested without running rollouts.
 */
import type { EpisodeTrace } from "../../src/agent/types.ts";
import { type EpisodeRecord, toEpisodeRecord } from "../../src/eval/episode-record.ts";
import type { ViolationCode } from "../../src/reward/score.ts";
import { toolCallResult } from "../../src/tools/tool-call-result.ts";

export interface TraceSpec {
  scenario?: string;
  index?: number;
  sample?: number;
  reward?: number;
  passed?: boolean;
  violations?: ViolationCode[];
  /** Number of tool calls on the trace (default 1). */
  calls?: number;
  /** Text of the assistant's final message. */
  final?: string;
  observation?: string;
  error?: EpisodeTrace["error"];
  /** End truncated by the call budget or the turn limit (no final answer). */
  truncation?: "budget" | "max_turns";
}

export function makeTrace(spec: TraceSpec = {}): EpisodeTrace {
  const scenario = spec.scenario ?? "jira-transition-v1";
  const index = spec.index ?? 0;
  const reward = spec.reward ?? 1;
  const passed = spec.passed ?? reward === 1;
  const violations = (spec.violations ?? []).map((code) => ({
    code,
    message: `${code} happened`,
    penalty: 0.1,
  }));
  const callCount = spec.calls ?? 1;
  const observation = spec.observation ?? '{"key":"ENG-1","fields":{"summary":"Fix <login> & logout"}}';
  const calls = Array.from({ length: callCount }, (_, i) =>
    toolCallResult(
      { name: "jira_get_issue", arguments: { issueIdOrKey: `ENG-${i + 1}` } },
      { operationId: "getIssue", effect: "read" },
      {
        status: 200,
        ok: true,
        body: {},
        input: { params: { issueIdOrKey: `ENG-${i + 1}` }, body: undefined },
      },
    ),
  ).map((c) => ({ ...c, observation }));
  const toolCalls = calls.map((c, i) => ({
    id: `call_${i}_0`,
    type: "function" as const,
    function: { name: c.name, arguments: JSON.stringify(c.arguments) },
  }));
  const final = spec.final ?? "Done: ENG-1 is In Progress.";
  return {
    taskId: `${scenario}/eval/${index}`,
    scenario,
    split: "eval",
    index,
    level: 1,
    sample: spec.sample ?? 0,
    model: "policy:fixture",
    maxTurns: 9,
    messages: [
      { role: "system", content: "You operate Jira and Confluence through tools." },
      { role: "user", content: "Start work on ENG-1." },
      ...(toolCalls.length > 0 ? [{ role: "assistant" as const, content: null, tool_calls: toolCalls }] : []),
      ...calls.map((c, i) => ({
        role: "tool" as const,
        tool_call_id: `call_${i}_0`,
        content: c.observation,
      })),
      ...(spec.truncation ? [] : [{ role: "assistant" as const, content: final }]),
    ],
    turns: [],
    calls,
    finalMessage: spec.truncation ? null : final,
    terminated: !spec.error && !spec.truncation,
    truncated: Boolean(spec.error || spec.truncation),
    ...(spec.error ? { truncation: "provider_error" as const, error: spec.error } : {}),
    ...(spec.truncation && !spec.error ? { truncation: spec.truncation } : {}),
    score: {
      reward,
      mode: "paper",
      paperReward: reward,
      passed,
      components: [],
      violations,
      explanation: `reward ${reward.toFixed(3)} (paper)${violations.map((v) => `\n  R3 [${v.code}] ${v.message}`).join("")}`,
    },
    durationMs: 1,
  };
}

/** The stored record of `makeTrace(spec)` (what episodes.jsonl holds). */
export const makeRecord = (spec: TraceSpec = {}): EpisodeRecord => toEpisodeRecord(makeTrace(spec));
