/**
 * report.html's episode list: one row per drilled-into episode (family, task, sample, verdict, reward,
 * calls), failed ones first, then the unscored, then the passed, each group in report order. A few
 * lines of the page's own script sort it by any column (click a header; again to reverse), filter it
 * with the "failed only" box, and open an episode's drill-down from its row. No library, no request.
 */
import { esc } from "../report-kit/escape-html.ts";
import { type EpisodeRecord, isProviderError } from "./episode-record.ts";

export type Verdict = "failed" | "not scored" | "passed";

/** An episode's verdict: a provider error is not scored; otherwise the score's own pass. */
export function verdictOf(record: EpisodeRecord): Verdict {
  if (isProviderError(record)) return "not scored";
  return record.score.passed ? "passed" : "failed";
}

/** Sort rank of a verdict: failed first. */
export const VERDICT_RANK: Record<Verdict, number> = { failed: 0, "not scored": 1, passed: 2 };

/** The drill-down's anchor id for an episode (task id and sample; `/` becomes `~`, as in `atlas-gym view`). */
export const episodeAnchor = (record: Pick<EpisodeRecord, "task_id" | "sample">) =>
  `ep~${record.task_id.replaceAll("/", "~")}~${record.sample}`;

/** Failed first, then not scored, then passed; a stable sort keeps report order within each. */
export function failedFirst(episodes: readonly EpisodeRecord[]): EpisodeRecord[] {
  return [...episodes].sort((a, b) => VERDICT_RANK[verdictOf(a)] - VERDICT_RANK[verdictOf(b)]);
}

const COLUMNS = [
  ["family", "text"],
  ["task", "num"],
  ["sample", "num"],
  ["verdict", "num"],
  ["reward", "num"],
  ["calls", "num"],
] as const;

function row(record: EpisodeRecord, order: number): string {
  const verdict = verdictOf(record);
  const index = record.task_id.slice(record.task_id.lastIndexOf("/") + 1);
  const reward = verdict === "not scored" ? null : record.score.reward;
  // data-* hold the values the script sorts by; data-order is report order (the tie-break).
  const cells: [string, string | number, string][] = [
    [esc(record.scenario), record.scenario, ""],
    [`<a href="#${esc(episodeAnchor(record))}"><code>${esc(record.task_id)}</code></a>`, Number(index), ""],
    [esc(record.sample), record.sample, "n"],
    [
      `<span class="${verdict === "passed" ? "ok" : "bad"}">${esc(verdict)}</span>`,
      VERDICT_RANK[verdict],
      "",
    ],
    [reward === null ? "—" : esc(reward.toFixed(3)), reward ?? -1, "n"],
    [esc(record.calls.length), record.calls.length, "n"],
  ];
  return `<tr data-passed="${verdict === "passed"}" data-order="${order}">${cells
    .map(([html, key, cls]) => `<td${cls ? ` class="${cls}"` : ""} data-v="${esc(key)}">${html}</td>`)
    .join("")}</tr>`;
}

/** The table, rows failed first; `reportOrdered` are the episodes in report order (the tie-break). */
export function episodeTable(reportOrdered: readonly EpisodeRecord[]): string {
  const order = new Map(reportOrdered.map((e, i) => [e, i]));
  const head = COLUMNS.map(
    ([name, type], i) =>
      `<th data-col="${i}" data-type="${type}" aria-sort="${name === "verdict" ? "ascending" : "none"}"><button type="button" class="sort">${name}</button></th>`,
  ).join("");
  return `<table class="episodes" id="episode-list"><thead><tr>${head}</tr></thead><tbody>${failedFirst(
    reportOrdered,
  )
    .map((e) => row(e, order.get(e)!))
    .join("")}</tbody></table>`;
}

/** Sorts the list by a header's column (numbers or text, ties in report order) and opens drill-downs. */
export const EPISODE_TABLE_SCRIPT = `
const list=document.getElementById("episode-list");
if(list){const body=list.tBodies[0];
for(const th of list.tHead.rows[0].cells)th.querySelector("button").addEventListener("click",()=>{
const col=Number(th.dataset.col),num=th.dataset.type==="num",dir=th.getAttribute("aria-sort")==="ascending"?-1:1;
for(const o of list.tHead.rows[0].cells)o.setAttribute("aria-sort","none");
th.setAttribute("aria-sort",dir===1?"ascending":"descending");
const key=(r)=>{const v=r.cells[col].dataset.v;return num?Number(v):v};
const rows=[...body.rows].sort((a,b)=>{const x=key(a),y=key(b);return (x<y?-1:x>y?1:0)*dir||Number(a.dataset.order)-Number(b.dataset.order)});
body.append(...rows)});}
const openHash=()=>{const d=document.getElementById(decodeURIComponent(location.hash.slice(1)));if(d&&d.tagName==="DETAILS")d.open=true};
window.addEventListener("hashchange",openHash);openHash();
`;
