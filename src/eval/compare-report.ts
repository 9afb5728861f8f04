/**
 * The paper-style comparison table (scenario, tasks, then for mean reward, pass rate and pass^k: A, B
 * and the delta with its bootstrap interval), for the terminal and as compare.md; when the runs hold
 * workflow tasks, a second table per horizon (pass rate, progress rate, mean reward).
 */
import type { CompareRow, CompareStat, Comparison } from "./compare.ts";
import { horizonLabel } from "./horizon-report.ts";
import { type Align, interval, markdownTable, num, signed, textTable } from "./table.ts";

function delta(s: CompareStat): string {
  if (s.delta === null) return "—";
  const excludesZero = s.delta_ci !== null && (s.delta_ci[0] > 0 || s.delta_ci[1] < 0);
  return `${signed(s.delta)} ${s.delta_ci ? interval(s.delta_ci[0], s.delta_ci[1], 2) : ""}${excludesZero ? " *" : ""}`;
}

const FIGURES = ["mean_reward", "pass_rate", "pass_hat_k"] as const;
/** The per-horizon table's figures (workflow runs only). */
const HORIZON_FIGURES = ["pass_rate", "progress_rate", "mean_reward"] as const;
type Figure = (typeof FIGURES)[number] | (typeof HORIZON_FIGURES)[number];

function cells(name: string, r: CompareRow, figures: readonly Figure[] = FIGURES): string[] {
  const s = (f: Figure) => r[f];
  return [
    name,
    String(r.tasks),
    ...figures.flatMap((f) => [num(s(f)?.a), num(s(f)?.b), s(f) ? delta(s(f)!) : "—"]),
  ];
}

function headers(c: Comparison, first: string, figures: readonly Figure[]): string[] {
  const pct = Math.round(c.method.level * 100);
  const names = {
    mean_reward: "mean",
    pass_rate: "pass",
    pass_hat_k: `pass^${c.k}`,
    progress_rate: "progress",
  };
  return [
    first,
    "tasks",
    ...figures.flatMap((f) => [`A ${names[f]}`, `B ${names[f]}`, `Δ ${names[f]} [${pct}% CI]`]),
  ];
}

/** Per horizon: pass rate, progress rate and mean reward of A and B, deltas with intervals (none without workflows). */
function horizonTable(c: Comparison, markdown: boolean): string[] {
  if (!c.horizons) return [];
  const head = headers(c, "horizon", HORIZON_FIGURES);
  const rows = Object.entries(c.horizons).map(([h, r]) => cells(horizonLabel(h), r, HORIZON_FIGURES));
  const align: Align[] = ["left", ...Array<Align>(head.length - 1).fill("right")];
  return [
    markdown ? "## Per horizon\n" : "per horizon (steps per task):",
    markdown ? markdownTable(head, rows, align) : textTable(head, rows, align),
  ];
}

function table(c: Comparison, markdown: boolean): string {
  const head = headers(c, "scenario", FIGURES);
  const groups = c.groups
    ? [cells("in-family", c.groups.in_family), cells("held-out", c.groups.held_out)]
    : [];
  const rows = [
    ...Object.entries(c.scenarios).map(([id, r]) => cells(id, r)),
    cells("overall", c.overall),
    ...groups,
  ];
  const align: Align[] = ["left", ...Array<Align>(head.length - 1).fill("right")];
  return markdown ? markdownTable(head, rows, align) : textTable(head, rows, align);
}

const legend = (c: Comparison) => {
  const errors = (n: number) => (n > 0 ? `, ${n} provider errors not scored` : "");
  return [
    `A = ${c.a.dir} (${c.a.model}${errors(c.a.provider_errors)})`,
    `B = ${c.b.dir} (${c.b.model}${errors(c.b.provider_errors)})`,
    `reward mode ${c.reward_mode}${c.common_tasks ? "; only the tasks both runs hold (--common-tasks)" : ""}`,
  ];
};

const method = (c: Comparison) =>
  `Intervals: ${c.method.resamples} paired bootstrap resamples of tasks (stratified by scenario), percentile ${Math.round(c.method.level * 100)}% intervals, seed ${c.method.seed}; the intervals of A's and B's values are in compare.json. * marks a delta whose interval excludes 0. pass^${c.k} covers the tasks with at least ${c.k} scored sample${c.k === 1 ? "" : "s"} in both runs.`;

export function compareText(c: Comparison): string {
  return [...legend(c), table(c, false), ...horizonTable(c, false), method(c)].join("\n");
}

export function compareMarkdown(c: Comparison): string {
  return [
    "# atlas-gym comparison",
    "",
    ...legend(c).map((l) => `- ${l}`),
    "",
    table(c, true),
    "",
    ...horizonTable(c, true).flatMap((part) => [part, ""]),
    method(c),
    "",
  ].join("\n");
}
