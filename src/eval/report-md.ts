/**
 * The results table (terminal and Markdown) and report.md: per-scenario reward statistics, pass rate,
 * pass^k and tool calls, the failure taxonomy, and how each figure is defined.
 */
import type { EpisodeOutcome, EvalResults, ScenarioResults } from "./metrics.ts";
import { FAILURE_CODES } from "./metrics.ts";
import type { EvalConfig } from "./run-dir.ts";
import { type Align, markdownTable, num, textTable } from "./table.ts";

/** Column headers of the results table (shared with report.html). */
export const HEADERS = (k: number) => [
  "scenario",
  "episodes",
  "mean",
  "min",
  "max",
  "std",
  "pass",
  `pass^${k}`,
  "calls",
];
const ALIGN: Align[] = ["left", ...Array<Align>(8).fill("right")];

const row = (name: string, s: ScenarioResults) => [
  name,
  String(s.episodes),
  num(s.mean_reward),
  num(s.min_reward),
  num(s.max_reward),
  num(s.std_reward),
  num(s.pass_rate),
  num(s.pass_hat_k),
  num(s.mean_tool_calls, 1),
];

/** One formatted row per scenario, the overall row, then in-family and held-out rows when the run has both (shared with report.html). */
export function rows(results: EvalResults): string[][] {
  const groups = results.groups
    ? [row("in-family", results.groups.in_family), row("held-out", results.groups.held_out)]
    : [];
  return [
    ...Object.entries(results.scenarios).map(([id, s]) => row(id, s)),
    row("overall", results.overall),
    ...groups,
  ];
}

/** The failure codes of an episode set that occurred, as "code ×n" (most frequent first). */
export function failureSummary(s: ScenarioResults): string {
  const seen = FAILURE_CODES.filter((c) => s.failures[c] > 0).sort((a, b) => s.failures[b] - s.failures[a]);
  return seen.length === 0 ? "none" : seen.map((c) => `${c} ×${s.failures[c]}`).join(", ");
}

/** The table printed at the end of `atlas-gym eval`. */
export function terminalTable(results: EvalResults, k: number): string {
  const failures = Object.entries(results.scenarios).map(([id, s]) => `  ${id}: ${failureSummary(s)}`);
  return [
    `model ${results.model} · reward ${results.reward_mode}`,
    textTable(HEADERS(k), rows(results), ALIGN),
    "failures (episodes):",
    ...failures,
  ].join("\n");
}

export interface ReportInput {
  results: EvalResults;
  config: EvalConfig;
  outcomes: readonly EpisodeOutcome[];
}

/** report.md. */
export function markdownReport({ results, config, outcomes }: ReportInput): string {
  const errors = new Map<string, number>();
  for (const o of outcomes) if (o.error) errors.set(o.error, (errors.get(o.error) ?? 0) + 1);
  const failureRows = [...Object.entries(results.scenarios), ["overall", results.overall] as const].map(
    ([id, s]) => [id, ...FAILURE_CODES.map((c) => String(s.failures[c]))],
  );
  return [
    "# atlas-gym eval report",
    "",
    `- model: \`${config.model}\``,
    `- reward mode: ${config.reward}; split: ${config.split}; tasks per scenario: ${config.n ?? "all"}; samples per task (k): ${config.k}; seed: ${config.seed}; max turns: ${config.maxTurns}`,
    `- episodes: ${results.overall.episodes}; provider errors: ${
      errors.size === 0 ? "none" : [...errors].map(([type, n]) => `${type} ×${n}`).join(", ")
    }`,
    "",
    "## Results",
    "",
    markdownTable(HEADERS(config.k), rows(results), ALIGN),
    "",
    "## Failures",
    "",
    "Episodes showing each failure (an episode counts once per kind).",
    "",
    markdownTable(["scenario", ...FAILURE_CODES], failureRows, ["left", ...Array<Align>(9).fill("right")]),
    "",
    "## How the figures are defined",
    "",
    `- **mean / min / max / std**: the episode reward in \`${config.reward}\` mode; std is the population standard deviation over episodes.`,
    "- **pass**: the share of episodes whose end state passed verification (the same verdict in every reward mode).",
    `- **pass^${config.k}**: tau-bench's pass^k — per task, C(c, k) / C(n, k) for c passing samples out of n, averaged over tasks: the chance that ${config.k} independent tries all pass.`,
    "- **calls**: mean tool calls per episode.",
    "- **failures**: episodes whose score carries the violation; see `report.html` for every episode's trace and reward explanation.",
    "",
  ].join("\n");
}
