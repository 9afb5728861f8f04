/**
 * The results table (terminal and Markdown) and report.md: per-scenario episodes (scored, provider
 * errors), reward statistics, pass rate, pass^k and tool calls, the failure taxonomy, the run's
 * provenance, and how each figure is defined.
 */
import { PER_TASK_TURNS } from "../agent/turn-limit.ts";
import { horizonMarkdown, horizonTerminal } from "./horizon-report.ts";
import type { EpisodeOutcome, EvalResults, ScenarioResults } from "./metrics.ts";
import { CI_RESAMPLES, FAILURE_CODES, type LastProviderError } from "./metrics.ts";
import type { EvalConfig } from "./run-dir.ts";
import { type Align, markdownTable, num, textTable, withInterval } from "./table.ts";

/** Column headers of the results table (shared with report.html). */
export const HEADERS = (k: number) => [
  "scenario",
  "episodes",
  "scored",
  "provider errors",
  "mean [95% CI]",
  "min",
  "max",
  "std",
  "pass [95% CI]",
  `pass^${k}`,
  "calls",
];
const ALIGN: Align[] = ["left", ...Array<Align>(10).fill("right")];

const row = (name: string, s: ScenarioResults) => [
  name,
  String(s.episodes),
  String(s.episodes_scored),
  String(s.provider_errors),
  withInterval(s.mean_reward, s.mean_reward_ci),
  num(s.min_reward),
  num(s.max_reward),
  num(s.std_reward),
  withInterval(s.pass_rate, s.pass_rate_ci),
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

/** "last: server_error (HTTP 503) after 4 retries, on jira-x-v1/eval/3 sample 0: <its text>". */
export function lastErrorLine(e: LastProviderError): string {
  const status = e.status === null ? "" : ` (HTTP ${e.status})`;
  const text = e.message.replace(/\s+/g, " ").trim();
  const clipped = text.length > 300 ? `${text.slice(0, 299)}…` : text;
  return `last: ${e.type}${status} after ${e.retries} ${e.retries === 1 ? "retry" : "retries"}, on ${e.task_id} sample ${e.sample}: ${clipped || "(no message)"}`;
}

/** "server_error ×3, timeout ×1": the provider error kinds of a run with their episode counts. */
export function providerErrorKinds(results: EvalResults): string {
  return Object.entries(results.provider_error_types ?? {})
    .map(([type, n]) => `${type} ×${n}`)
    .join(", ");
}

/** The table printed at the end of `atlas-gym eval`. */
export function terminalTable(results: EvalResults, k: number): string {
  const failures = Object.entries(results.scenarios).map(([id, s]) => `  ${id}: ${failureSummary(s)}`);
  const errors = results.overall.provider_errors;
  return [
    `model ${results.model} · reward ${results.reward_mode}`,
    textTable(HEADERS(k), rows(results), ALIGN),
    ...(errors > 0
      ? [
          `${errors} of ${results.overall.episodes} episodes ended in a provider error (${providerErrorKinds(results)}): not scored, left out of every figure above`,
          ...(results.last_provider_error ? [`  ${lastErrorLine(results.last_provider_error)}`] : []),
        ]
      : []),
    "failures (episodes):",
    ...failures,
    ...horizonTerminal(results),
  ].join("\n");
}

export interface ReportInput {
  results: EvalResults;
  config: EvalConfig;
  outcomes: readonly EpisodeOutcome[];
}

function provenanceLines(results: EvalResults): string[] {
  const p = results.provenance;
  if (!p) return [];
  return [
    `- atlas-gym ${p.atlas_gym_version}${p.git_commit ? ` (commit \`${p.git_commit}\`)` : ""}; started ${p.started_at}, ended ${p.ended_at ?? "—"}; tools: ${p.tools}; provider settings: ${JSON.stringify(p.provider)}`,
    `- scenarios: ${Object.entries(p.scenarios)
      .map(([id, s]) => `${id} ${s.version} (eval split sha256 ${s.eval_split_sha256?.slice(0, 12) ?? "—"})`)
      .join(", ")}`,
  ];
}

/** report.md. */
export function markdownReport({ results, config }: ReportInput): string {
  const errors = providerErrorKinds(results);
  const failureRows = [...Object.entries(results.scenarios), ["overall", results.overall] as const].map(
    ([id, s]) => [id, ...FAILURE_CODES.map((c) => String(s.failures[c]))],
  );
  return [
    "# atlas-gym eval report",
    "",
    `- model: \`${config.model}\``,
    `- reward mode: ${config.reward}; split: ${config.split}; tasks per scenario: ${config.n ?? "all"}; samples per task (k): ${config.k}; seed: ${config.seed}; max turns: ${config.maxTurns ?? PER_TASK_TURNS}`,
    `- episodes: ${results.overall.episodes}; scored: ${results.overall.episodes_scored}; provider errors: ${
      errors || "none"
    }${errors ? " — not scored and left out of every figure below (rerun them with `atlas-gym eval --resume`)" : ""}`,
    ...(results.last_provider_error ? [`  - ${lastErrorLine(results.last_provider_error)}`] : []),
    ...provenanceLines(results),
    "",
    "## Results",
    "",
    markdownTable(HEADERS(config.k), rows(results), ALIGN),
    "",
    "## Failures",
    "",
    "Episodes showing each failure (an episode counts once per kind).",
    "",
    markdownTable(["scenario", ...FAILURE_CODES], failureRows, [
      "left",
      ...Array<Align>(FAILURE_CODES.length).fill("right"),
    ]),
    "",
    ...horizonMarkdown(results),
    "## How the figures are defined",
    "",
    `- **mean / min / max / std**: the episode reward in \`${config.reward}\` mode; std is the population standard deviation over episodes.`,
    "- **pass**: the share of episodes whose end state passed verification (the same verdict in every reward mode).",
    `- **pass^${config.k}**: tau-bench's pass^k — per task, C(c, k) / C(n, k) for c passing samples out of n, averaged over tasks: the chance that ${config.k} independent tries all pass.`,
    "- **calls**: mean tool calls per episode.",
    "- **scored / provider errors**: an episode that ended because the model provider failed after its retries is a provider error; it says nothing about the model and is left out of every other figure.",
    `- **[95% CI]** (results.json \`*_ci\`): 95% percentile bootstrap intervals of the mean reward and the pass rate, tasks resampled within each scenario (${CI_RESAMPLES} resamples, seeded).`,
    "- **failures**: episodes whose score carries the violation; see `report.html` for every episode's trace and reward explanation.",
    "",
  ].join("\n");
}
