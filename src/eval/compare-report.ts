/**
 * The paper-style comparison table (scenario, A mean, B mean, delta, each with its bootstrap interval),
 * for the terminal and as compare.md.
 */
import type { CompareRow, Comparison } from "./compare.ts";
import { type Align, interval, markdownTable, num, signed, textTable } from "./table.ts";

function cells(name: string, r: CompareRow): string[] {
  const withCi = (mean: number | null, ci: [number, number] | null) =>
    mean === null ? "—" : `${num(mean)} ${ci ? interval(ci[0], ci[1], 2) : ""}`.trim();
  const excludesZero = r.delta_ci !== null && (r.delta_ci[0] > 0 || r.delta_ci[1] < 0);
  const delta =
    r.delta === null
      ? "—"
      : `${signed(r.delta)} ${r.delta_ci ? interval(r.delta_ci[0], r.delta_ci[1], 2) : ""}${excludesZero ? " *" : ""}`;
  const tasks = r.tasks_a === r.tasks_b ? String(r.tasks_a) : `${r.tasks_a || "—"}/${r.tasks_b || "—"}`;
  return [name, tasks, withCi(r.a_mean, r.a_ci), withCi(r.b_mean, r.b_ci), delta];
}

function table(c: Comparison, markdown: boolean): string {
  const pct = Math.round(c.method.level * 100);
  const headers = ["scenario", "tasks", `A mean [${pct}% CI]`, `B mean [${pct}% CI]`, `Δ B−A [${pct}% CI]`];
  const groups = c.groups
    ? [cells("in-family", c.groups.in_family), cells("held-out", c.groups.held_out)]
    : [];
  const rows = [
    ...Object.entries(c.scenarios).map(([id, r]) => cells(id, r)),
    cells("overall", c.overall),
    ...groups,
  ];
  const align: Align[] = ["left", "right", "right", "right", "right"];
  return markdown ? markdownTable(headers, rows, align) : textTable(headers, rows, align);
}

const legend = (c: Comparison) => [
  `A = ${c.a.dir} (${c.a.model})`,
  `B = ${c.b.dir} (${c.b.model})`,
  `reward mode ${c.reward_mode}`,
];

const method = (c: Comparison) =>
  `Intervals: ${c.method.resamples} bootstrap resamples of tasks (stratified by scenario, paired when both runs hold the same tasks), percentile ${Math.round(c.method.level * 100)}% intervals, seed ${c.method.seed}. * marks a delta whose interval excludes 0. Overall covers the scenarios both runs hold.`;

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
