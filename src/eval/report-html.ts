/**
 * report.html: one self-contained page (inline CSS, inline SVG charts, a few lines of inline script;
 * a Content-Security-Policy forbids every request) with the results table, the charts, the failure
 * taxonomy and a drill-down per episode. Large runs show the first episodes in report order (failed
 * ones first); every episode stays in episodes.jsonl.
 */
import { esc } from "../report-kit/escape-html.ts";
import { episodeHtml } from "./episode-html.ts";
import type { EpisodeRecord } from "./episode-record.ts";
import { EPISODE_TABLE_SCRIPT, episodeTable } from "./episode-table.ts";
import { horizonHtml } from "./horizon-report.ts";
import { type EpisodeOutcome, type EvalResults, FAILURE_CODES } from "./metrics.ts";
import { provenanceHtml } from "./provenance-html.ts";
import { HEADERS, lastErrorLine, rows } from "./report-md.ts";
import type { EvalConfig } from "./run-dir.ts";

/** Most episodes given a drill-down in one report. */
export const MAX_DRILL_DOWN = 1000;

export interface HtmlReportInput {
  results: EvalResults;
  config: EvalConfig;
  outcomes: readonly EpisodeOutcome[];
  /** The episodes to drill into (chosen with `drillDownKeys`), in report order. */
  episodes: readonly EpisodeRecord[];
}

/** Report order: scenario (in results order), task index, sample. */
export function reportOrder(scenarios: readonly string[]) {
  const rank = new Map(scenarios.map((id, i) => [id, i]));
  const index = (taskId: string) => Number(taskId.slice(taskId.lastIndexOf("/") + 1));
  return (a: EpisodeOutcome, b: EpisodeOutcome) =>
    (rank.get(a.scenario) ?? 0) - (rank.get(b.scenario) ?? 0) ||
    index(a.taskId) - index(b.taskId) ||
    a.taskId.localeCompare(b.taskId) ||
    a.sample - b.sample;
}

/** The episodes a report drills into: all of them, or at most `max` with failed ones first. */
export function drillDownOutcomes(
  outcomes: readonly EpisodeOutcome[],
  scenarios: readonly string[],
  max = MAX_DRILL_DOWN,
): EpisodeOutcome[] {
  const sorted = [...outcomes].sort(reportOrder(scenarios));
  if (sorted.length <= max) return sorted;
  const chosen = new Set(
    [...sorted.filter((o) => !o.passed), ...sorted.filter((o) => o.passed)].slice(0, max),
  );
  return sorted.filter((o) => chosen.has(o));
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1d1d1f}
table{border-collapse:collapse;margin:8px 0 20px}th,td{border:1px solid #ccc;padding:3px 8px}
table.failures{table-layout:fixed;width:100%;font-size:12px}
table.failures th,table.failures td{padding:3px 4px;overflow-wrap:anywhere;white-space:normal}
table.failures th{font-weight:600;vertical-align:bottom}table.failures th:first-child{width:20%}
table.failures th span{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;text-align:left}
.split{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:12px}
aside.task-data{border-left:3px solid #54a24b;padding-left:8px}
td:first-child{white-space:nowrap}td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f3f3f3}
.charts{display:flex;flex-wrap:wrap;gap:16px}.charts figure{margin:0;max-width:100%;overflow-x:auto}
pre{white-space:pre-wrap;word-break:break-word;background:#f7f7f7;padding:6px 8px;margin:4px 0;max-height:320px;overflow:auto}
details.episode{border:1px solid #ddd;border-radius:4px;margin:4px 0;padding:4px 8px}
details.episode>summary{cursor:pointer}.ok{color:#17803d}.bad{color:#b42318}.codes{color:#8a4b00}
.msg{border-left:3px solid #ccc;padding-left:8px;margin:6px 0}.msg.user{border-color:#4c78a8}
.msg.assistant{border-color:#f58518}.role,.label{font-size:12px;color:#666;text-transform:uppercase}
.call{margin:6px 0 6px 12px;border-left:2px dashed #bbb;padding-left:8px}
button{margin-right:6px}
dl.provenance{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:6px 0}
dl.provenance dt{color:#666}dl.provenance dd{margin:0;overflow-wrap:anywhere}
details.provenance{border:1px solid #ddd;border-radius:4px;padding:4px 8px;margin:8px 0}
details.provenance>summary,details.provenance details>summary{cursor:pointer;font-weight:600}
table.episodes button.sort{border:0;background:none;font:inherit;font-weight:600;cursor:pointer;padding:0;margin:0}
table.episodes th{position:sticky;top:0}table.episodes th button::after{content:"";display:inline-block;margin-left:5px;border:5px solid transparent}
table.episodes th[aria-sort=ascending] button::after{border-bottom-color:#333;vertical-align:2px}table.episodes th[aria-sort=descending] button::after{border-top-color:#333;vertical-align:-3px}
.episode-list{max-height:420px;overflow:auto;display:inline-block}
`;

const SCRIPT = `
document.getElementById("expand").addEventListener("click",()=>{for(const d of document.querySelectorAll("details.episode"))d.open=true});
document.getElementById("collapse").addEventListener("click",()=>{for(const d of document.querySelectorAll("details.episode"))d.open=false});
document.getElementById("failed").addEventListener("change",(e)=>{for(const d of document.querySelectorAll('details.episode[data-passed="true"],#episode-list tr[data-passed="true"]'))d.hidden=e.target.checked});
${EPISODE_TABLE_SCRIPT}`;

function resultsTable(results: EvalResults, k: number): string {
  const cells = (row: string[]) =>
    row.map((v, i) => (i === 0 ? `<td>${esc(v)}</td>` : `<td class="n">${esc(v)}</td>`)).join("");
  const head = HEADERS(k)
    .map((h) => `<th>${esc(h)}</th>`)
    .join("");
  return `<table><tr>${head}</tr>${rows(results)
    .map((row) => `<tr>${cells(row)}</tr>`)
    .join("")}</table>`;
}

/** A failure code as a header that can break at its underscores (so the table fits the page). */
/** A code as a column header, set upright-rotated so a long code stays whole in a narrow column. */
const header = (code: string) => `<span>${esc(code)}</span>`;

function failureTable(results: EvalResults): string {
  const scenarios = [...Object.entries(results.scenarios), ["overall", results.overall] as const];
  return `<table class="failures"><tr><th>scenario</th>${FAILURE_CODES.map((c) => `<th>${header(c)}</th>`).join("")}</tr>${scenarios
    .map(
      ([id, s]) =>
        `<tr><td>${esc(id)}</td>${FAILURE_CODES.map((c) => `<td class="n">${s.failures[c]}</td>`).join("")}</tr>`,
    )
    .join("")}</table>`;
}

function providerErrorNote(results: EvalResults): string {
  const n = results.overall.provider_errors;
  if (n === 0) return "";
  const last = results.last_provider_error ? `<br>${esc(lastErrorLine(results.last_provider_error))}` : "";
  return `<p class="bad"><b>${n} episode${n === 1 ? "" : "s"} ended in a provider error</b> (the model server failed after its retries): they are not scored and are left out of every figure below; rerun them with <code>atlas-gym eval --resume</code>.${last}</p>`;
}

export async function htmlReport({ results, config, outcomes, episodes }: HtmlReportInput): Promise<string> {
  // Vega loads in about a second: only when a report is written.
  const { failureSpec, meanRewardSpec, passRateSpec, rewardDistributionSpec } = await import("./charts.ts");
  const { renderSvg } = await import("../report-kit/vega-svg.ts");
  const failures = failureSpec(results);
  const charts = [
    await renderSvg(meanRewardSpec(results)),
    await renderSvg(passRateSpec(results)),
    failures ? await renderSvg(failures) : "<p>No failures to chart.</p>",
    await renderSvg(rewardDistributionSpec(outcomes, Object.keys(results.scenarios))),
  ];
  const horizons = (await import("./horizon-charts.ts")).horizonSpec(results);
  const byScenario = Object.keys(results.scenarios).map((id) => {
    const shown = episodes.filter((e) => e.scenario === id);
    return `<section><h3>${esc(id)} <small>(${shown.length} of ${results.scenarios[id]!.episodes} episodes)</small></h3>\n${shown.map(episodeHtml).join("\n")}</section>`;
  });
  const title = `atlas-gym eval: ${config.model}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head><body>
<h1>atlas-gym eval report</h1>
<p>model <code>${esc(config.model)}</code> · reward mode <b>${esc(config.reward)}</b> · split ${esc(config.split)} · k = ${esc(config.k)} samples per task · seed ${esc(config.seed)} · ${results.overall.episodes} episodes, ${results.overall.episodes_scored} scored</p>
${providerErrorNote(results)}
${provenanceHtml(results.provenance)}
<h2>Results</h2>
${resultsTable(results, config.k)}
<div class="charts">${charts.map((svg) => `<figure>${svg}</figure>`).join("")}</div>
<h2>Failures</h2>
<p>Episodes showing each failure (an episode counts once per kind).</p>
${failureTable(results)}
${horizons ? horizonHtml(results, await renderSvg(horizons)) : ""}
<h2>Episodes</h2>
<p>${episodes.length} of ${outcomes.length} episodes${episodes.length < outcomes.length ? " (failed ones first; all are in episodes.jsonl)" : ""}.
<button id="expand" type="button">expand all</button><button id="collapse" type="button">collapse all</button>
<label><input id="failed" type="checkbox"> failed only</label></p>
<p>Failed episodes first; click a column to sort by it (again to reverse), a task to open its drill-down.</p>
<div class="episode-list">${episodeTable(episodes)}</div>
${byScenario.join("\n")}
<script>${SCRIPT}</script>
</body></html>
`;
}
