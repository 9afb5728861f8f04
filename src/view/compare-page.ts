/**
 * Two runs compared: the tables of `atlas-gym compare` (per family and overall, A's and B's mean reward,
 * pass rate and pass^k, the deltas with their paired bootstrap intervals, computed by the eval module's
 * compareRuns), and the episodes that flipped (passed in one run, failed in the other), sorted by the
 * size of the reward change, each opening both episodes side by side.
 */
import { type CompareRow, type CompareStat, type Comparison, compareRuns, loadRun } from "../eval/compare.ts";
import { interval, num, signed } from "../eval/table.ts";
import { esc } from "../report-kit/escape-html.ts";
import { HELD_OUT } from "../scenarios/index.ts";
import type { EpisodeRow } from "./episode-rows.ts";
import { htmlTable, page, problemBox } from "./layout.ts";
import type { LoadedViewRun } from "./run-store.ts";

export interface Flip {
  id: string;
  taskId: string;
  sample: number;
  a: EpisodeRow;
  b: EpisodeRow;
  delta: number;
}

/** Episodes scored in both runs whose verdict differs, largest reward change first. */
export function flippedEpisodes(a: LoadedViewRun, b: LoadedViewRun): Flip[] {
  const flips: Flip[] = [];
  for (const rowA of a.rows) {
    const rowB = b.byId.get(rowA.id);
    if (!rowB || rowA.outcome.error || rowB.outcome.error) continue;
    if (rowA.outcome.passed === rowB.outcome.passed) continue;
    const delta = rowB.outcome.reward - rowA.outcome.reward;
    flips.push({ id: rowA.id, taskId: rowA.taskId, sample: rowA.sample, a: rowA, b: rowB, delta });
  }
  return flips.sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || x.id.localeCompare(y.id));
}

/** Comparisons already computed, per pair of loaded runs (a run reloaded after a change is a new object). */
const cache = new WeakMap<LoadedViewRun, Map<string, { b: LoadedViewRun; comparison: Comparison }>>();

function comparisonOf(a: LoadedViewRun, b: LoadedViewRun, common: boolean): Comparison {
  const key = `${b.dir}|${common}`;
  const known = cache.get(a)?.get(key);
  if (known && known.b === b) return known.comparison;
  const comparison = compareRuns(loadRun(a.dir), loadRun(b.dir), { commonTasks: common }, HELD_OUT);
  if (!cache.has(a)) cache.set(a, new Map());
  cache.get(a)!.set(key, { b, comparison });
  return comparison;
}

function deltaCell(s: CompareStat): string {
  if (s.delta === null) return "—";
  const sure = s.delta_ci !== null && (s.delta_ci[0] > 0 || s.delta_ci[1] < 0);
  const ci = s.delta_ci ? ` <span class="muted">${esc(interval(s.delta_ci[0], s.delta_ci[1]))}</span>` : "";
  return `<span class="${sure ? (s.delta > 0 ? "ok" : "bad") : ""}">${esc(signed(s.delta))}${sure ? " *" : ""}</span>${ci}`;
}

const FIGURES = ["mean_reward", "pass_rate", "pass_hat_k"] as const;

function comparisonTable(c: Comparison): string {
  const names = { mean_reward: "mean", pass_rate: "pass", pass_hat_k: `pass^${c.k}` };
  const headers = [
    "family",
    "tasks",
    ...FIGURES.flatMap((f) => [`A ${names[f]}`, `B ${names[f]}`, `Δ ${names[f]} [95% CI]`]),
  ];
  const cells = (name: string, r: CompareRow) => [
    esc(name),
    esc(r.tasks),
    ...FIGURES.flatMap((f) => [esc(num(r[f].a)), esc(num(r[f].b)), deltaCell(r[f])]),
  ];
  const rows = [...Object.entries(c.scenarios).map(([id, r]) => cells(id, r)), cells("overall", c.overall)];
  if (c.groups) rows.push(cells("in-family", c.groups.in_family), cells("held-out", c.groups.held_out));
  return htmlTable(headers, rows, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
}

function runChooser(runs: readonly LoadedViewRun[], a?: string, b?: string, common = false): string {
  const options = (current?: string) =>
    runs
      .map((r) => `<option value="${esc(r.id)}"${r.id === current ? " selected" : ""}>${esc(r.id)}</option>`)
      .join("");
  return `<form class="filters" method="get" action="/compare">
<label>A (baseline)<select name="a">${options(a)}</select></label>
<label>B<select name="b">${options(b)}</select></label>
<label><span>only common tasks</span><input type="checkbox" name="common" value="1"${common ? " checked" : ""}></label>
<button type="submit">Compare</button></form>`;
}

export function comparePage(
  runs: readonly LoadedViewRun[],
  a: LoadedViewRun | undefined,
  b: LoadedViewRun | undefined,
  common: boolean,
): string {
  const chooser = runChooser(runs, a?.id, b?.id ?? runs.find((r) => r.id !== a?.id)?.id, common);
  if (!a || !b) return page({ title: "Compare two runs" }, `${chooser}<p>Choose two runs.</p>`);
  let table: string;
  try {
    const comparison = comparisonOf(a, b, common);
    table = `<p>A = <a href="/runs/${esc(a.id)}">${esc(a.id)}</a> (<code>${esc(comparison.a.model)}</code>), B = <a href="/runs/${esc(b.id)}">${esc(b.id)}</a> (<code>${esc(comparison.b.model)}</code>), reward mode ${esc(comparison.reward_mode)}. * marks a delta whose interval excludes 0.</p>${comparisonTable(comparison)}`;
  } catch (error) {
    // The CLI's advice in the view's words: here the choice is the checkbox above.
    const message = (error as Error).message.replace("pass --common-tasks", "tick “only common tasks” above");
    table = problemBox([message]);
  }
  const flips = flippedEpisodes(a, b);
  const rows = flips.map((f) => [
    `<a href="/compare/episode?a=${esc(a.id)}&amp;b=${esc(b.id)}&amp;id=${esc(f.id)}">${esc(f.taskId)} #${esc(f.sample)}</a>`,
    f.a.outcome.passed
      ? '<span class="bad">passed → failed</span>'
      : '<span class="ok">failed → passed</span>',
    esc(f.a.outcome.reward.toFixed(3)),
    esc(f.b.outcome.reward.toFixed(3)),
    `<span class="${f.delta >= 0 ? "ok" : "bad"}">${esc(signed(f.delta))}</span>`,
  ]);
  return page(
    { title: `Compare ${a.id} and ${b.id}` },
    `${chooser}${table}<h2 id="flipped">Flipped episodes (${flips.length})</h2>
${rows.length ? htmlTable(["episode", "flip", "A reward", "B reward", "Δ reward"], rows, [2, 3, 4]) : "<p>No episode changed its verdict.</p>"}`,
  );
}
