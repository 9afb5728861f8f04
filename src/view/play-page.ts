/**
 * The Play pages: choose a family, split, task and tool set; then the task's prompt, a form per offered
 * tool (generated from its JSON Schema, or raw JSON arguments), each call's result as it ran, the final
 * answer, and once the episode ends the score and the expectation check, with a button that saves the
 * episode as a run.
 */
import { storedCall, toEpisodeRecord } from "../eval/episode-record.ts";
import { esc } from "../report-kit/escape-html.ts";
import { REWARD_MODES } from "../reward/score.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import { EVAL_TASKS } from "../scenarios/tasks.ts";
import { TOOL_SET_NAMES } from "../tools/aliases/tool-sets.ts";
import { callHtml, pre } from "./conversation-html.ts";
import { endStateHtml, scoreHtml } from "./end-state-html.ts";
import { page, problemBox } from "./layout.ts";
import type { PlaySession } from "./play-session.ts";
import { replayRecord } from "./replay-record.ts";
import { type JsonSchema, schemaFields } from "./schema-form.ts";

const options = (values: readonly string[], current?: string) =>
  values
    .map((v) => `<option value="${esc(v)}"${v === current ? " selected" : ""}>${esc(v)}</option>`)
    .join("");

export function playStartPage(problems: string[] = []): string {
  return page(
    { title: "Play a task" },
    `${problemBox(problems)}<p>Attempt a task by hand, through the same Episode as <code>eval</code>: a human baseline, and a check that a family is solvable.</p>
<form method="post" action="/play" class="filters">
<label>family<select name="scenario">${options(SCENARIOS.map((s) => s.id))}</select></label>
<label>split<select name="split">${options(["eval", "train"])}</select></label>
<label>task index<input type="number" name="index" min="0" value="0" required><span class="muted">eval: 0–${EVAL_TASKS - 1}</span></label>
<label>tool set<select name="tools">${options(TOOL_SET_NAMES)}</select></label>
<label>reward mode<select name="reward">${options(REWARD_MODES)}</select></label>
<button type="submit">Start</button></form>`,
  );
}

function toolForms(session: PlaySession): string {
  return session.episode
    .functionTools()
    .map(({ function: f }) => {
      const fields = schemaFields(f.parameters as JsonSchema, f.name);
      return `<details class="tool"><summary><code>${esc(f.name)}</code> <span class="muted">${esc((f.description ?? "").split("\n")[0]!.slice(0, 120))}</span></summary>
<form method="post" action="/play/${esc(session.id)}/call" class="tool-form" data-tool="${esc(f.name)}">
<input type="hidden" name="tool" value="${esc(f.name)}">
${fields}
<label>or raw JSON arguments (used instead of the fields when given)<textarea name="raw" placeholder="{}"></textarea></label>
<button type="submit">Call ${esc(f.name)}</button></form></details>`;
    })
    .join("\n");
}

function callsSoFar(session: PlaySession): string {
  return session.episode.calls
    .map((c, i) => callHtml(c.name, c.arguments, storedCall(c, ""), i + 1))
    .join("\n");
}

function endedHtml(session: PlaySession): string {
  const trace = session.trace!;
  const record = toEpisodeRecord(trace);
  const saved = session.savedTo
    ? `<p class="ok">Saved as a run in <code>${esc(session.savedTo)}</code>.</p>`
    : `<form method="post" action="/play/${esc(session.id)}/save"><button type="submit">Save as a run</button></form>`;
  return `<h2 id="score">Score</h2>
<p class="summary">reward <b class="reward">${esc(trace.score.reward.toFixed(3))}</b> · ${trace.score.passed ? '<span class="ok">passed</span>' : '<span class="bad">failed</span>'} · ${esc(trace.calls.length)} calls · ${esc(trace.terminated ? "final answer given" : `truncated (${trace.truncation})`)}</p>
${saved}
${scoreHtml(record.score)}
<h2 id="end-state">Expectation and end state</h2>
${endStateHtml(record, replayRecord(record, session.toolSet))}`;
}

export function playSessionPage(session: PlaySession, problems: string[] = []): string {
  const { episode } = session;
  const ended = session.trace !== undefined;
  const body = `${problemBox(problems)}
<p>task <code>${esc(episode.task.id)}</code> · tool set ${esc(session.toolSet)} · ${esc(episode.calls.length)} of ${esc(episode.expectation.budget)} calls used · <a href="/play">start another</a></p>
<h2>Task</h2>${pre(episode.task.prompt, "prompt")}
<h2 id="calls">Calls</h2>${callsSoFar(session) || "<p>No call yet.</p>"}
${
  ended
    ? endedHtml(session)
    : `<h2>Tools</h2>${toolForms(session)}
<h2>Final answer</h2><form method="post" action="/play/${esc(session.id)}/final"><label>what you tell the user<textarea name="final" required></textarea></label><button type="submit">Give the final answer</button></form>`
}`;
  return page({ title: `Play ${episode.task.id}` }, body);
}
