/**
 * The per-horizon part of the eval reports (terminal, report.md, report.html): a table of each horizon's
 * episodes, mean reward, pass rate and progress rate with their 95% bootstrap intervals, and where
 * episodes first failed (step k, with the failure kinds), and each workflow episode's steps in its
 * drill-down line. Every function returns nothing when the run holds no workflow episode (results.json
 * has no `horizons`), so single-family reports are unchanged.
 */
import { esc } from "../report-kit/escape-html.ts";
import type { EpisodeRecord } from "./episode-record.ts";
import type { HorizonResults, StepFailures } from "./horizon-metrics.ts";
import type { EvalResults } from "./metrics.ts";
import { type Align, markdownTable, textTable, withInterval } from "./table.ts";
import { workflowOf } from "./workflow-outcome.ts";

const HEADERS = [
  "horizon",
  "episodes",
  "scored",
  "mean [95% CI]",
  "pass [95% CI]",
  "progress [95% CI]",
  "all steps held",
];
const ALIGN: Align[] = ["left", ...Array<Align>(HEADERS.length - 1).fill("right")];

/** A horizon's row label in every table ("1 (single family)", "3 steps"). */
export const horizonLabel = (h: string) => (h === "1" ? "1 (single family)" : `${h} steps`);

const entries = (results: EvalResults): [string, HorizonResults][] => Object.entries(results.horizons ?? {});

function rows(results: EvalResults): string[][] {
  return entries(results).map(([h, r]) => [
    horizonLabel(h),
    String(r.episodes),
    String(r.episodes_scored),
    withInterval(r.mean_reward, r.mean_reward_ci),
    withInterval(r.pass_rate, r.pass_rate_ci),
    withInterval(r.progress_rate, r.progress_rate_ci),
    r.episodes_with_progress === 0 ? "—" : `${r.all_steps_held} of ${r.episodes_with_progress}`,
  ]);
}

/** "kind ×n, …", most frequent first. */
const counts = (c: Record<string, number>) =>
  Object.entries(c)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, n]) => `${k} ×${n}`)
    .join(", ") || "—";

/** One line per workflow horizon: where its episodes first failed. */
function firstFailedLines(results: EvalResults): string[] {
  return entries(results)
    .filter(([, r]) => r.first_failed_step.length > 0)
    .map(([h, r]) => {
      const steps = r.first_failed_step
        .filter((s) => s.episodes > 0)
        .map((s) => `step ${s.step} ×${s.episodes} (${counts(s.kinds)})`);
      return `horizon ${h}: ${[...steps, `every step held ×${r.all_steps_held}`].join(", ")}`;
    });
}

const DEFINITIONS = [
  "**horizon**: the number of steps of a workflow task (each step one family's task); the run's single-family episodes are horizon 1.",
  "**progress**: the mean over episodes of the share of a workflow's steps whose part of the expectation holds at the end (`score.progress.rate`); its interval is the same task bootstrap as the others.",
  "**first failed step**: per horizon, how many episodes first failed at step k, with the failure kind of that step (a finding kind such as `missing_mutation`, `wrong_value`, `unhonoured_binding`, or a violation code).",
];

/** Lines after the terminal table (none without workflow episodes). */
export function horizonTerminal(results: EvalResults): string[] {
  if (!results.horizons) return [];
  return [
    "per horizon:",
    textTable(HEADERS, rows(results), ALIGN),
    "first failed step (episodes):",
    ...firstFailedLines(results).map((l) => `  ${l}`),
  ];
}

const STEP_HEADERS = ["step", "first failed here", "failure kinds", "step families"];

const stepRow = (s: StepFailures) => [
  String(s.step),
  String(s.episodes),
  counts(s.kinds),
  counts(s.families),
];

/** report.md's "Horizons" section (none without workflow episodes). */
export function horizonMarkdown(results: EvalResults): string[] {
  if (!results.horizons) return [];
  const perHorizon = entries(results)
    .filter(([, r]) => r.first_failed_step.length > 0)
    .flatMap(([h, r]) => [
      `### Horizon ${h}: first failed step`,
      "",
      `${r.episodes_with_progress} scored episodes with per-step progress; every step held in ${r.all_steps_held}.`,
      "",
      markdownTable(STEP_HEADERS, r.first_failed_step.map(stepRow), ["right", "right", "left", "left"]),
      "",
    ]);
  return [
    "## Horizons",
    "",
    markdownTable(HEADERS, rows(results), ALIGN),
    "",
    ...perHorizon,
    ...DEFINITIONS.map((d) => `- ${d}`),
    "",
  ];
}

/** An HTML table: the first column and those from `textFrom` on hold text (left-aligned), the others numbers. */
const htmlTable = (headers: string[], body: string[][], textFrom = headers.length) =>
  `<table><tr>${headers.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>${body
    .map(
      (r) =>
        `<tr>${r.map((v, i) => (i === 0 || i >= textFrom ? `<td>${esc(v)}</td>` : `<td class="n">${esc(v)}</td>`)).join("")}</tr>`,
    )
    .join("")}</table>`;

/** report.html's "Horizons" section: the table, the chart, a first-failed-step table per horizon. */
export function horizonHtml(results: EvalResults, chart: string): string {
  if (!results.horizons) return "";
  const perHorizon = entries(results)
    .filter(([, r]) => r.first_failed_step.length > 0)
    .map(
      ([h, r]) =>
        `<h3>Horizon ${esc(h)}: first failed step</h3><p>${r.episodes_with_progress} scored episodes with per-step progress; every step held in ${r.all_steps_held}.</p>${htmlTable(STEP_HEADERS, r.first_failed_step.map(stepRow), 2)}`,
    );
  return `<h2>Horizons</h2>
${htmlTable(HEADERS, rows(results))}
<div class="charts"><figure>${chart}</figure></div>
${perHorizon.join("\n")}
<ul>${DEFINITIONS.map(
    (d) =>
      `<li>${esc(d)
        .replace(/\*\*(.+?)\*\*/g, "<b>$1</b>")
        .replace(/`(.+?)`/g, "<code>$1</code>")}</li>`,
  ).join("")}</ul>`;
}

/** A workflow episode's drill-down note, e.g. "2 of 3 steps held · first failed: step 3 (wrong_value)"; "" otherwise. */
export function stepsNote(record: EpisodeRecord): string {
  const w = workflowOf(record).workflow;
  if (!w?.progress) return w ? `${w.horizon} steps` : "";
  const held = Math.round(w.progress.rate * w.horizon);
  const first = w.progress.firstFailed;
  return `${held} of ${w.horizon} steps held${first ? ` · first failed: step ${first.step} (${first.failure})` : ""}`;
}
