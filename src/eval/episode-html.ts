/**
 * The per-episode drill-down of report.html: one <details> per episode with the conversation, each tool
 * call (tool, operation, HTTP status, arguments, observation) where the model made it, the raw model
 * output and parse problems where a turn had them, retries, and the reward explanation; beside the
 * trace, whatever else the record holds about the task (its expectation, the end-state diff), rendered
 * from the data. Every model-provided text is escaped; long texts are clipped.
 */
import type { ChatToolCall } from "../agent/types.ts";
import { esc } from "../report-kit/escape-html.ts";
import {
  type EpisodeRecord,
  extrasOf,
  isProviderError,
  type StoredCall,
  type StoredTurn,
} from "./episode-record.ts";
import { episodeAnchor, verdictOf } from "./episode-table.ts";
import { stepsNote } from "./horizon-report.ts";
import { clip, pretty } from "./html.ts";

/** Longest text shown for one message, argument set or observation. */
export const MAX_TEXT = 4000;

const pre = (text: string, cls = "") =>
  `<pre${cls ? ` class="${cls}"` : ""}>${esc(clip(text, MAX_TEXT))}</pre>`;

/** A call's number: its 1-based position on the trace (`calls[N - 1]`), as the score's "set by call N". */
export const callNumber = (calls: readonly StoredCall[], result: StoredCall | undefined) =>
  result ? calls.indexOf(result) + 1 : null;

function callHtml(call: ChatToolCall, result: StoredCall | undefined, n: number | null): string {
  const status = result
    ? result.ok
      ? `<span class="ok">${esc(result.status ?? "ok")}</span>`
      : `<span class="bad">${esc(result.error_type ?? "error")}${result.status ? ` ${esc(result.status)}` : ""}</span>`
    : `<span class="bad">not executed</span>`;
  const operation = result?.operation_id ? ` → <code>${esc(result.operation_id)}</code>` : "";
  const observation = result?.observation ?? "(no observation: the episode ended before this call ran)";
  return [
    `<div class="call"><div class="call-head">${n === null ? "tool call" : `call ${n}`} <code>${esc(call.function.name)}</code>${operation} ${status}</div>`,
    `<div class="label">arguments</div>${pre(pretty(call.function.arguments))}`,
    `<div class="label">observation</div>${pre(pretty(observation), "obs")}</div>`,
  ].join("");
}

/** Each call of the trace under the id of the assistant tool call it executed (in order, per id). */
function callsById(record: EpisodeRecord): (id: string) => StoredCall | undefined {
  const queues = new Map<string, StoredCall[]>();
  for (const c of record.calls) queues.set(c.tool_call_id, [...(queues.get(c.tool_call_id) ?? []), c]);
  return (id) => queues.get(id)?.shift();
}

/** A turn's retries, parse problems and raw output (also shown by `atlas-gym view`). */
export function turnNotes(turn: StoredTurn | undefined): string[] {
  if (!turn) return [];
  const notes: string[] = [];
  if (turn.retries > 0) notes.push(`<div class="label">${esc(turn.retries)} retries</div>`);
  if (turn.problems?.length)
    notes.push(`<div class="bad">parse problems: ${esc(turn.problems.join("; "))}</div>`);
  if (turn.raw !== undefined)
    notes.push(`<details><summary>raw model output</summary>${pre(turn.raw)}</details>`);
  return notes;
}

function conversationHtml(record: EpisodeRecord): string[] {
  const callFor = callsById(record);
  const turnOf = new Map(record.turns.filter((t) => t.message !== null).map((t) => [t.message!, t]));
  return record.messages.map((message, i) => {
    if (message.role === "tool") return "";
    const parts = [`<div class="msg ${esc(message.role)}"><div class="role">${esc(message.role)}</div>`];
    if (message.role === "system") {
      parts.push(`<details><summary>system prompt</summary>${pre(message.content ?? "")}</details>`);
    } else {
      if (message.reasoning)
        parts.push(`<details><summary>reasoning</summary>${pre(message.reasoning, "reasoning")}</details>`);
      if (message.content) parts.push(pre(message.content));
      parts.push(...turnNotes(turnOf.get(i)));
      for (const call of message.tool_calls ?? []) {
        const result = callFor(call.id);
        parts.push(callHtml(call, result, callNumber(record.calls, result)));
      }
    }
    parts.push("</div>");
    return parts.join("");
  });
}

function outcomeLabel(record: EpisodeRecord): string {
  if (isProviderError(record)) return `provider error: ${record.error!.type}`;
  if (record.terminated) return "terminated";
  return `truncated${record.truncation ? ` (${record.truncation})` : ""}`;
}

/** The task's expectation, the end-state diff and anything else stored beside the trace. */
function asideHtml(record: EpisodeRecord): string {
  const extras = extrasOf(record);
  if (extras.length === 0) return "";
  return `<aside class="task-data">${extras
    .map(([title, value]) => `<h4>${esc(title.replaceAll("_", " "))}</h4>${pre(pretty(value), "data")}`)
    .join("")}</aside>`;
}

export function episodeHtml(record: EpisodeRecord): string {
  const codes = [...new Set(((record.score.violations ?? []) as { code: string }[]).map((v) => v.code))];
  const errored = verdictOf(record) === "not scored";
  const passed = verdictOf(record) === "passed";
  const verdict = errored
    ? `<span class="bad">not scored</span>`
    : `<span class="${passed ? "ok" : "bad"}">${passed ? "passed" : "failed"}</span>`;
  const summary = [
    `<code>${esc(record.task_id)}</code> sample ${esc(record.sample)}`,
    errored ? "" : `reward <b>${esc(record.score.reward.toFixed(3))}</b>`,
    verdict,
    `${esc(record.calls.length)} calls`,
    esc(outcomeLabel(record)),
    errored ? "" : esc(stepsNote(record)),
    record.retries > 0 ? `${esc(record.retries)} retries` : "",
    codes.length > 0 && !errored ? `<span class="codes">${esc(codes.join(", "))}</span>` : "",
  ]
    .filter(Boolean)
    .join(" · ");
  const error = record.error
    ? `<p class="bad">Provider error (${esc(record.error.type)}${record.error.status ? `, HTTP ${esc(record.error.status)}` : ""}): ${esc(record.error.message)}</p>`
    : "";
  const aside = asideHtml(record);
  return [
    `<details class="episode" id="${esc(episodeAnchor(record))}" data-passed="${passed}"><summary>${summary}</summary>`,
    error,
    `<div class="${aside ? "split" : ""}"><div class="trace">`,
    `<h4>Conversation</h4>`,
    ...conversationHtml(record),
    `<h4>Reward</h4>${pre(record.score.explanation, "explanation")}`,
    `</div>${aside}</div>`,
    "</details>",
  ].join("\n");
}
