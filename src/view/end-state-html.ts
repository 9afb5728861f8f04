/**
 * Why an episode scored what it did: the score broken down (R1 per requested field with the reason,
 * R2 reads, R3 violations), the expectation beside the end state field by field with every mismatch
 * marked (from a replay of the episode, see replay-record.ts; from the logged R1 alone when it cannot
 * be replayed), what the task did not ask for, and the site diff.
 */
import type { EpisodeRecord } from "../eval/episode-record.ts";
import { pretty } from "../eval/html.ts";
import { esc } from "../report-kit/escape-html.ts";
import type { Expectation } from "../reward/expectation.ts";
import { describeExpected } from "../reward/match-value.ts";
import type { Component, Violation } from "../reward/score.ts";
import type { RecordChange } from "../sandbox/diff.ts";
import { pre } from "./conversation-html.ts";
import { htmlTable } from "./layout.ts";
import type { Replay } from "./replay-record.ts";

export function scoreHtml(score: EpisodeRecord["score"]): string {
  const components = (score.components ?? []) as Component[];
  const violations = (score.violations ?? []) as Violation[];
  const rows = components.map((c) => [
    esc(c.group),
    esc(c.label),
    `<span class="${c.points >= c.max ? "ok" : "bad"}">${esc(c.points.toFixed(3))} / ${esc(c.max.toFixed(3))}</span>`,
    esc(c.detail),
  ]);
  const r3 = violations.map((v) => [`<code>${esc(v.code)}</code>`, esc(v.message), esc(`−${v.penalty}`)]);
  return `<h3>R1 and R2</h3>${htmlTable(["group", "requirement", "points", "why"], rows, [2])}
<h3>R3 violations</h3>${r3.length ? htmlTable(["code", "what happened", "penalty"], r3, [2]) : '<p class="ok">None.</p>'}
<details><summary>explanation (as logged)</summary>${pre(score.explanation)}</details>`;
}

/** Expected fields beside the end state, from the replay's verdict. */
function verdictRows(replay: Extract<Replay, { ok: true }>): string {
  const rows = replay.verdict.fields.map((f) => {
    const expected = f.entity.kind === "delete" ? "deleted" : describeExpected(f.entity.fields[f.field]!);
    return `<tr class="${f.ok ? "match" : "mismatch"}"><td>${esc(f.entity.label)}</td><td><code>${esc(f.field)}</code></td><td>${esc(expected)}</td><td>${esc(f.detail)}${f.recordId ? ` <span class="muted">(${esc(f.table)} ${esc(f.recordId)})</span>` : ""}</td><td>${f.ok ? '<span class="ok">✓ match</span>' : '<span class="bad">✗ mismatch</span>'}</td></tr>`;
  });
  const missing = replay.verdict.missing.map(
    (e) =>
      `<tr class="mismatch"><td>${esc(e.label)}</td><td colspan="3">no record for ${esc(e.ref)}</td><td><span class="bad">✗ missing</span></td></tr>`,
  );
  const extra = [...replay.verdict.collateral, ...replay.verdict.duplicates].map(
    (c) =>
      `<tr class="mismatch"><td colspan="4">${esc(c.message)}</td><td><span class="bad">✗ not asked for</span></td></tr>`,
  );
  return `<table class="expectation"><thead><tr><th scope="col">requirement</th><th scope="col">field</th><th scope="col">expected</th><th scope="col">end state</th><th scope="col">check</th></tr></thead><tbody>${[...rows, ...missing, ...extra].join("")}</tbody></table>`;
}

/** Without a replay: the logged R1 components, one per requested field. */
function loggedRows(score: EpisodeRecord["score"]): string {
  const r1 = ((score.components ?? []) as Component[]).filter((c) => c.group === "R1");
  return `<table class="expectation"><thead><tr><th scope="col">requirement</th><th scope="col">end state (logged)</th><th scope="col">check</th></tr></thead><tbody>${r1
    .map((c) => {
      const ok = c.points >= c.max;
      return `<tr class="${ok ? "match" : "mismatch"}"><td>${esc(c.label)}</td><td>${esc(c.detail)}</td><td>${ok ? '<span class="ok">✓ match</span>' : '<span class="bad">✗ mismatch</span>'}</td></tr>`;
    })
    .join("")}</tbody></table>`;
}

function changeHtml(change: RecordChange): string {
  const head = `<code>${esc(change.table)} ${esc(change.id)}</code>`;
  if (change.kind === "updated") {
    const before = change.before as unknown as Record<string, unknown>;
    const after = change.after as unknown as Record<string, unknown>;
    const rows = change.fields.map((f) => [
      `<code>${esc(f)}</code>`,
      pre(pretty(before[f] ?? null)),
      pre(pretty(after[f] ?? null)),
    ]);
    return `<li><span class="badge warn">updated</span> ${head}${htmlTable(["field", "before", "after"], rows)}</li>`;
  }
  if (change.kind === "created")
    return `<li><span class="badge ok">created</span> ${head}<details><summary>record</summary>${pre(pretty(change.after))}</details></li>`;
  return `<li><span class="badge bad">deleted</span> ${head}<details><summary>record before</summary>${pre(pretty(change.before))}</details></li>`;
}

export function endStateHtml(record: EpisodeRecord, replay: Replay): string {
  const expectation = record.expectation as Expectation | undefined;
  const raw = expectation
    ? `<details><summary>expectation (as logged)</summary>${pre(pretty(expectation))}</details>`
    : "";
  if (!replay.ok)
    return `<p class="warn">The end state could not be rebuilt (${esc(replay.reason)}); the logged R1 shows each requested field instead.</p>
${loggedRows(record.score)}${raw}`;
  const same = replay.sameScore
    ? `<p class="muted">End state rebuilt by replaying the episode's calls; the replay scores ${esc(replay.reward.toFixed(3))}, as logged.</p>`
    : `<p class="warn" role="alert">The replay scores ${esc(replay.reward.toFixed(3))}, the run logged ${esc(record.score.reward.toFixed(3))}: the scenario or reward changed since this run.</p>`;
  const changes = replay.changes.length
    ? `<ul class="diff">${replay.changes.map(changeHtml).join("")}</ul>`
    : "<p>The site is unchanged.</p>";
  return `${same}${verdictRows(replay)}${raw}<h3 id="diff">Site diff (${replay.changes.length} record${replay.changes.length === 1 ? "" : "s"})</h3>${changes}`;
}
