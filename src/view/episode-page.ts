/**
 * One episode, at a link anyone can share (`/runs/<run>/episodes/<id>`): the task prompt and the system
 * prompt, the conversation turn by turn, the score broken down, and the expectation beside the end
 * state with the site diff. `episodeBody` is also used by the compare page to put two episodes side by
 * side.
 */
import type { EpisodeRecord } from "../eval/episode-record.ts";
import { isProviderError } from "../eval/episode-record.ts";
import { esc } from "../report-kit/escape-html.ts";
import { conversationHtml, pre } from "./conversation-html.ts";
import { endStateHtml, scoreHtml } from "./end-state-html.ts";
import { episodeId } from "./episode-rows.ts";
import { page } from "./layout.ts";
import { replayRecord } from "./replay-record.ts";
import type { LoadedViewRun } from "./run-store.ts";

function verdict(record: EpisodeRecord): string {
  if (isProviderError(record)) return `<span class="warn">not scored (provider error)</span>`;
  return record.score.passed ? `<span class="ok">passed</span>` : `<span class="bad">failed</span>`;
}

export function episodeBody(run: LoadedViewRun, record: EpisodeRecord, heading = "h2"): string {
  const system = record.messages.find((m) => m.role === "system")?.content ?? "";
  const prompt = record.messages.find((m) => m.role === "user")?.content ?? "";
  const ended = record.terminated ? "terminated (final answer)" : `truncated (${record.truncation ?? "?"})`;
  const error = record.error
    ? `<p class="problem">Provider error ${esc(record.error.type)}${record.error.status ? ` (HTTP ${esc(record.error.status)})` : ""}: ${esc(record.error.message)}</p>`
    : "";
  const h = (text: string, id: string) => `<${heading} id="${id}">${esc(text)}</${heading}>`;
  return `<p class="summary">reward <b class="reward">${esc(record.score.reward.toFixed(3))}</b> · ${verdict(record)} · ${esc(record.calls.length)} calls · ${esc(ended)} · model <code>${esc(record.model)}</code> · level ${esc(record.level)} · ${esc(Math.round(record.duration_ms))} ms</p>
${error}
${h("Task", "task")}
${pre(prompt, "prompt")}
<details><summary>system prompt</summary>${pre(system)}</details>
${h("Conversation", "conversation")}
${conversationHtml(record)}
${record.final_message === null ? '<p class="warn">No final answer.</p>' : ""}
${h("Score", "score")}
${scoreHtml(record.score)}
${h("Expectation and end state", "end-state")}
${endStateHtml(record, replayRecord(record, run.config?.tools))}`;
}

export function episodePage(run: LoadedViewRun, record: EpisodeRecord): string {
  const title = `${record.task_id} #${record.sample}`;
  return page(
    { title },
    `<p><a href="/runs/${esc(run.id)}">← run ${esc(run.id)}</a> · share: <code>/runs/${esc(run.id)}/episodes/${esc(episodeId(record.task_id, record.sample))}</code></p>
${episodeBody(run, record)}`,
  );
}
