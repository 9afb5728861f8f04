/**
 * The paper-style comparison table (scenario, tasks, then for mean reward, pass rate and pass^k: A, B
 * and the delta with its bootstrap interval), for the terminal and as compare.md.
 */
import type { CompareRow, CompareStat, Comparison } from "./compare.ts";
import { type Align, interval, markdownTable, num, signed, textTable } from "./table.ts";

function delta(s: CompareStat): string {
  if (s.delta === null) return "—";
  const excludesZero = s.delta_ci !== null && (s.delta_ci[0] > 0 || s.delta_ci[1] < 0);
  return `${signed(s.delta)} ${s.delta_ci ? interval(s.delta_ci[0], s.delta_ci[1], 2) : ""}${excludesZero ? " *" : ""}`;
}

const FIGURES = ["mean_reward", "pass_rate", "pass_hat_k"] as const;

function cells(name: string, r: CompareRow): string[] {
  return [name, String(r.tasks), ...FIGURES.flatMap((f) => [num(r[f].a), num(r[f].b), delta(r[f])])];
}

function table(c: Comparison, markdown: boolean): string {
  const pct = Math.round(c.method.level * 100);
  const names = { mean_reward: "mean", pass_rate: "pass", pass_hat_k: `pass^${c.k}` };
  const headers = [
    "scenario",
    "tasks",
    ...FIGURES.flatMap((f) => [`A ${names[f]}`, `B ${names[f]}`, `Δ ${names[f]} [${pct}% CI]`]),
  ];
  const groups = c.groups
    ? [cells("in-family", c.groups.in_family), cells("held-out", c.groups.held_out)]
    : [];
  const rows = [
    ...Object.entries(c.scenarios).map(([id, r]) => cells(id, r)),
    cells("overall", c.overall),
    ...groups,
  ];
  const align: Align[] = ["left", ...Array<Align>(headers.length - 1).fill("right")];
  return markdown ? markdownTable(headers, rows, align) : textTable(headers, rows, align);
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
  `Intervals: ${c.method.resamples} paired bootstrap resamples of tasks (stratified by scenario), percentile ${Math.round(c.method.level * 100)}% intervals, seed ${c.method.seed}; the intervals of A's and B's values are in compare.json. * marks a delta whose interval excludes 0. pass^${c.k} covers the tasks with at least ${c.k} scored samples in both runs.`;

export function compareText(c: Comparison): string {
  return [...legend(c), table(c, false), method(c)].join("\n");
}

export function compareMarkdown(c: Comparison): string {
  return [
    "# atlas-gym comparison",
    "",
    ...legend(c).map((l) => `- ${l}`),
    "",
    table(c, true),
    "",
    method(c),
    "",
  ].join("\n");
}
