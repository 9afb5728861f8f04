/**
 * The per-episode drill-down of report.html: one <details> per episode with the conversation, each tool
 * call (tool, operation, HTTP status, arguments, observation) where the model made it, the raw model
 * output and parse problems where they differ from the parsed message, and the reward explanation. Every model-provided text is escaped; long texts are clipped.
 */
import type { ChatMessage, EpisodeTrace, PolicyTurn } from "../agent/types.ts";
import { describeExpectation } from "../reward/describe-expectation.ts";
import type { ToolCallResult } from "../tools/execute-tool.ts";
import { clip, esc, pretty } from "./html.ts";

/** Longest text shown for one message, argument set or observation. */
export const MAX_TEXT = 4000;

const pre = (text: string, cls = "") =>
  `<pre${cls ? ` class="${cls}"` : ""}>${esc(clip(text, MAX_TEXT))}</pre>`;

function callHtml(
  name: string,
  args: string,
  result: ToolCallResult | undefined,
  observation: string,
): string {
  const status = result
    ? result.ok
      ? `<span class="ok">${esc(result.status ?? "ok")}</span>`
      : `<span class="bad">${esc(result.errorType ?? "error")}${result.status ? ` ${esc(result.status)}` : ""}</span>`
    : `<span class="bad">not executed</span>`;
  const operation = result?.operationId ? ` → <code>${esc(result.operationId)}</code>` : "";
  return [
    `<div class="call"><div class="call-head">tool call <code>${esc(name)}</code>${operation} ${status}</div>`,
    `<div class="label">arguments</div>${pre(pretty(args))}`,
    `<div class="label">observation</div>${pre(pretty(observation), "obs")}</div>`,
  ].join("");
}

function messageHtml(
  message: ChatMessage,
  observations: Map<string, string>,
  results: Map<string, ToolCallResult>,
  turn: PolicyTurn | undefined,
): string {
  if (message.role === "tool") return "";
  const parts = [`<div class="msg ${esc(message.role)}"><div class="role">${esc(message.role)}</div>`];
  if (message.role === "system") {
    parts.push(`<details><summary>system prompt</summary>${pre(message.content ?? "")}</details>`);
  } else {
    if (message.reasoning)
      parts.push(`<details><summary>reasoning</summary>${pre(message.reasoning, "reasoning")}</details>`);
    if (message.content) parts.push(pre(message.content));
    if (turn?.problems?.length)
      parts.push(`<div class="bad">parse problems: ${esc(turn.problems.join("; "))}</div>`);
    if (turn?.raw !== undefined && turn.raw !== message.content)
      parts.push(`<details><summary>raw model output</summary>${pre(turn.raw)}</details>`);
    for (const call of message.tool_calls ?? []) {
      parts.push(
        callHtml(
          call.function.name,
          call.function.arguments,
          results.get(call.id),
          observations.get(call.id) ?? "(no observation: the episode ended before this call ran)",
        ),
      );
    }
  }
  parts.push("</div>");
  return parts.join("");
}

/** Pairs each tool message with its call: tool messages follow the executed calls in order. */
function pairCalls(trace: EpisodeTrace) {
  const observations = new Map<string, string>();
  const results = new Map<string, ToolCallResult>();
  let next = 0;
  for (const m of trace.messages) {
    if (m.role !== "tool" || m.tool_call_id === undefined) continue;
    observations.set(m.tool_call_id, m.content ?? "");
    const result = trace.calls[next++];
    if (result) results.set(m.tool_call_id, result);
  }
  return { observations, results };
}

function outcomeLabel(trace: EpisodeTrace): string {
  if (trace.error) return `provider error: ${trace.error.type}`;
  if (trace.terminated) return "terminated";
  return `truncated${trace.truncation ? ` (${trace.truncation})` : ""}`;
}

export function episodeHtml(trace: EpisodeTrace): string {
  const { observations, results } = pairCalls(trace);
  // Each assistant message is the answer of the next turn that did not fail.
  const answered = trace.turns.filter((t) => !t.turn.error).map((t) => t.turn);
  const codes = [...new Set(trace.score.violations.map((v) => v.code))];
  const passed = trace.score.passed;
  const summary = [
    `<code>${esc(trace.taskId)}</code> sample ${esc(trace.sample)}`,
    `reward <b>${esc(trace.score.reward.toFixed(3))}</b>`,
    `<span class="${passed ? "ok" : "bad"}">${passed ? "passed" : "failed"}</span>`,
    `${esc(trace.calls.length)} calls`,
    esc(outcomeLabel(trace)),
    codes.length > 0 ? `<span class="codes">${esc(codes.join(", "))}</span>` : "",
  ]
    .filter(Boolean)
    .join(" · ");
  const error = trace.error
    ? `<p class="bad">Provider error (${esc(trace.error.type)}${trace.error.status ? `, HTTP ${esc(trace.error.status)}` : ""}): ${esc(trace.error.message)}</p>`
    : "";
  return [
    `<details class="episode" data-passed="${passed}"><summary>${summary}</summary>`,
    error,
    `<h4>Conversation</h4>`,
    ...trace.messages.map((m) =>
      messageHtml(m, observations, results, m.role === "assistant" ? answered.shift() : undefined),
    ),
    trace.expectation ? `<h4>Expected end state</h4>${pre(describeExpectation(trace.expectation))}` : "",
    `<h4>Reward</h4>${pre(trace.score.explanation, "explanation")}`,
    "</details>",
  ].join("\n");
}
