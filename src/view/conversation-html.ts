/**
 * An episode's conversation for the view, turn by turn: the assistant's text, its reasoning collapsed,
 * each tool call with its arguments and the operation it hit, and each result as collapsible JSON with
 * failed calls marked; raw model output and parse problems where a turn had them. Shared by the episode
 * page and the live and play pages (which build the same stored shapes). Texts are escaped and clipped.
 */
import type { ChatToolCall } from "../agent/types.ts";
import { callNumber, turnNotes } from "../eval/episode-html.ts";
import type { EpisodeRecord, StoredCall, StoredTurn } from "../eval/episode-record.ts";
import { clip, pretty } from "../eval/html.ts";
import { esc } from "../report-kit/escape-html.ts";

export const MAX_TEXT = 20_000;

export const pre = (text: string, cls = "") =>
  `<pre${cls ? ` class="${cls}"` : ""}>${esc(clip(text, MAX_TEXT))}</pre>`;

/** One tool call and its result (`result` undefined: it never ran). */
export function callHtml(
  name: string,
  args: unknown,
  result: StoredCall | undefined,
  n: number | null,
): string {
  const failed = !result?.ok;
  const status = result
    ? result.ok
      ? `<span class="badge ok">${esc(result.status ?? "ok")}</span>`
      : `<span class="badge bad">error: ${esc(result.error_type ?? "error")}${result.status ? ` ${esc(result.status)}` : ""}</span>`
    : `<span class="badge bad">not executed</span>`;
  const op = result?.operation_id ? ` → <code>${esc(result.operation_id)}</code>` : "";
  const observation = result?.observation ?? "(the episode ended before this call ran)";
  return `<div class="call${failed ? " failed" : ""}" data-call="${n ?? ""}"><div>${n === null ? "call" : `call ${n}`} <code>${esc(name)}</code>${op} ${status}</div>
<div class="label">arguments</div>${pre(pretty(args))}
<details${failed ? " open" : ""}><summary>result</summary>${pre(pretty(observation), "obs")}</details></div>`;
}

function notes(turn: StoredTurn | undefined): string {
  if (!turn) return "";
  const error = turn.error
    ? `<div class="bad">provider error ${esc(turn.error.type)}: ${esc(turn.error.message)}</div>`
    : "";
  return `${turnNotes(turn).join("")}${error}`;
}

/** The conversation after the opening messages: assistant turns with their calls, in order. */
export function conversationHtml(record: Pick<EpisodeRecord, "messages" | "calls" | "turns">): string {
  const queues = new Map<string, StoredCall[]>();
  for (const c of record.calls) queues.set(c.tool_call_id, [...(queues.get(c.tool_call_id) ?? []), c]);
  const resultOf = (call: ChatToolCall) => queues.get(call.id)?.shift();
  const turnOf = new Map(record.turns.filter((t) => t.message !== null).map((t) => [t.message!, t]));
  let turn = 0;
  const parts = record.messages.map((m, i) => {
    if (m.role !== "assistant") return "";
    turn++;
    const calls = (m.tool_calls ?? []).map((c) => {
      const result = resultOf(c);
      return callHtml(c.function.name, c.function.arguments, result, callNumber(record.calls, result));
    });
    return `<section class="msg assistant" aria-label="turn ${turn}"><div class="label">turn ${turn} · assistant</div>
${m.reasoning ? `<details><summary>thinking</summary>${pre(m.reasoning)}</details>` : ""}
${m.content ? (calls.length ? `<details><summary>text</summary>${pre(m.content)}</details>` : `<div class="label">final answer</div>${pre(m.content)}`) : ""}
${notes(turnOf.get(i))}${calls.join("\n")}</section>`;
  });
  const failedTurns = record.turns.filter((t) => t.message === null).map((t) => notes(t));
  return [...parts, ...failedTurns].filter(Boolean).join("\n") || "<p>No assistant turn.</p>";
}
