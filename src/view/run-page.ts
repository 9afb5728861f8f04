/**
 * One run: its provenance, what could not be read, the figures per family and per level (mean reward
 * and pass rate with their intervals, pass^k), and the episode list — filtered by family, level,
 * verdict, how it ended, violation code and provider error, searched by prompt, one page at a time.
 */
import { PER_TASK_TURNS } from "../agent/turn-limit.ts";
import { type ScenarioResults, summarize } from "../eval/metrics.ts";
import { esc } from "../report-kit/escape-html.ts";
import { type EpisodeRow, filterChoices, PAGE_SIZE, pageOf, type RowFilter } from "./episode-rows.ts";
import { htmlTable, page, problemBox } from "./layout.ts";
import type { LoadedViewRun } from "./run-store.ts";
import { figureCells } from "./runs-page.ts";

const FIGURE_HEADERS = ["mean reward [95% CI]", "pass rate [95% CI]", "pass^k", "episodes"];

/** Per-level figures (all families, then each family at each level), computed once per loaded run. */
const levelCache = new WeakMap<LoadedViewRun, [string, ScenarioResults][]>();

function levelResults(run: LoadedViewRun): [string, ScenarioResults][] {
  let cached = levelCache.get(run);
  if (!cached) {
    const k = run.config?.k ?? Math.max(1, ...run.rows.map((r) => r.sample + 1));
    const levels = [...new Set(run.rows.map((r) => r.level))].sort();
    const families = [...new Set(run.rows.map((r) => r.scenario))];
    const group = (name: string, keep: (r: EpisodeRow) => boolean): [string, ScenarioResults] => [
      name,
      summarize(
        run.rows.filter(keep).map((r) => r.outcome),
        k,
        name,
      ),
    ];
    cached = [
      ...levels.map((level) => group(`all families · level ${level}`, (r) => r.level === level)),
      ...families.flatMap((family) =>
        levels
          .filter((level) => run.rows.some((r) => r.scenario === family && r.level === level))
          .map((level) =>
            group(`${family} · level ${level}`, (r) => r.scenario === family && r.level === level),
          ),
      ),
    ];
    levelCache.set(run, cached);
  }
  return cached;
}

function provenanceList(run: LoadedViewRun): string {
  const p = run.provenance;
  if (!p) return "";
  const items: [string, string][] = [
    ["model", p.model],
    ["tools", p.tools],
    ["split", `${p.split}${p.n ? `, n = ${p.n}` : ""}, k = ${p.k}, seed ${p.seed}`],
    ["reward mode", p.reward_mode],
    ["max turns", String(p.max_turns ?? PER_TASK_TURNS)],
    ["atlas-gym", `${p.atlas_gym_version}${p.git_commit ? ` (commit ${p.git_commit.slice(0, 12)})` : ""}`],
    ["time", `${p.started_at} → ${p.ended_at ?? "not finished"}`],
    [
      "scenarios",
      Object.entries(p.scenarios)
        .map(([id, s]) => `${id} ${s.version} (split ${s.eval_split_sha256?.slice(0, 12) ?? "—"})`)
        .join(", "),
    ],
  ];
  return `<dl>${items.map(([k, v]) => `<dt class="label">${esc(k)}</dt><dd>${esc(v)}</dd>`).join("")}</dl>`;
}

function select(name: string, label: string, values: readonly string[], current?: string): string {
  const options = ["", ...values]
    .map(
      (v) =>
        `<option value="${esc(v)}"${v === (current ?? "") ? " selected" : ""}>${esc(v || "any")}</option>`,
    )
    .join("");
  return `<label>${esc(label)}<select name="${esc(name)}">${options}</select></label>`;
}

function filterForm(run: LoadedViewRun, filter: RowFilter): string {
  const choices = filterChoices(run.rows);
  return `<form class="filters" method="get" action="/runs/${esc(run.id)}" role="search">
${select("family", "family", choices.family, filter.family)}
${select("level", "level", choices.level, filter.level)}
${select("verdict", "verdict", ["passed", "failed", "errored"], filter.verdict)}
${select("ending", "ended", choices.ending, filter.ending)}
${select("violation", "violation", choices.violation, filter.violation)}
${select("error", "provider error", choices.error, filter.error)}
<label>prompt contains<input type="search" name="q" value="${esc(filter.q ?? "")}"></label>
<button type="submit">Filter</button> <a href="/runs/${esc(run.id)}">clear</a></form>`;
}

function verdictCell(row: EpisodeRow): string {
  if (row.outcome.error) return `<span class="warn">not scored (${esc(row.outcome.error)})</span>`;
  return row.outcome.passed ? `<span class="ok">passed</span>` : `<span class="bad">failed</span>`;
}

function episodeTable(run: LoadedViewRun, rows: readonly EpisodeRow[]): string {
  return htmlTable(
    ["episode", "family", "level", "reward", "verdict", "ended", "calls", "violations", "prompt"],
    rows.map((r) => [
      `<a href="/runs/${esc(run.id)}/episodes/${esc(r.id)}">${esc(r.taskId)} #${esc(r.sample)}</a>`,
      esc(r.scenario),
      esc(r.level),
      r.outcome.error ? "—" : esc(r.outcome.reward.toFixed(3)),
      verdictCell(r),
      esc(r.ending),
      esc(r.outcome.toolCalls),
      esc(r.outcome.violations.join(", ")),
      esc(r.prompt.length > 140 ? `${r.prompt.slice(0, 140)}…` : r.prompt),
    ]),
    [2, 3, 6],
  );
}

function pager(run: LoadedViewRun, filter: RowFilter, current: number, pages: number): string {
  const link = (p: number, text: string) => {
    const query = new URLSearchParams({ ...(filter as Record<string, string>), page: String(p) });
    return `<a href="/runs/${esc(run.id)}?${esc(query.toString())}" rel="${p < current ? "prev" : "next"}">${esc(text)}</a>`;
  };
  return `<nav class="pager" aria-label="pages">${current > 1 ? link(current - 1, "← previous") : ""}<span>page ${current} of ${pages}</span>${current < pages ? link(current + 1, "next →") : ""}</nav>`;
}

export function runPage(run: LoadedViewRun, filter: RowFilter, pageNumber: number): string {
  const shown = pageOf(run.rows, filter, pageNumber);
  const results = run.results;
  const families = results
    ? [...Object.entries(results.scenarios), ["overall", results.overall] as const].map(([id, s]) => [
        id === "overall"
          ? "<b>overall</b>"
          : `<a href="/runs/${esc(run.id)}?family=${esc(id)}">${esc(id)}</a>`,
        ...figureCells(s),
      ])
    : [];
  const levels = levelResults(run).map(([name, s]) => [esc(name), ...figureCells(s)]);
  const body = `${problemBox(run.problems)}
<p><code>${esc(run.dir)}</code> · ${run.finished ? "finished" : '<span class="warn">not finished: figures so far, from the episodes logged</span>'} · <a href="/compare?a=${esc(run.id)}">compare with…</a></p>
${provenanceList(run)}
<h2>Per family</h2>
${families.length ? htmlTable(["family", ...FIGURE_HEADERS], families, [1, 2, 3, 4]) : "<p>No figures yet.</p>"}
<h2>Per level</h2>
${levels.length ? htmlTable(["family and level", ...FIGURE_HEADERS], levels, [1, 2, 3, 4]) : "<p>No episodes yet.</p>"}
<h2 id="episodes">Episodes</h2>
${filterForm(run, filter)}
<p id="matched">${shown.total} of ${run.rows.length} episodes match${shown.total > PAGE_SIZE ? `; ${PAGE_SIZE} per page` : ""}.</p>
${shown.rows.length ? episodeTable(run, shown.rows) : "<p>No episode matches these filters.</p>"}
${shown.pages > 1 ? pager(run, filter, shown.page, shown.pages) : ""}`;
  return page({ title: `Run ${run.id}` }, body);
}
