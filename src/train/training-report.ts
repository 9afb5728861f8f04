/**
 * The training-dynamics report (`atlas-gym report training <dir>`), like the paper's training figure:
 * mean reward per step inside the band of its groups' min and max, the share of zero-variance groups
 * (no GRPO signal), and KL, tool calls, completion length and gradient norm when logged; with the
 * learning recipe's `<dir>/evaluation.json` (python/atlas_gym/recipe.py), the `atlas-gym eval` summaries
 * before GRPO and after it. Charts are Vega-Lite specs
 * rendered to SVG without a browser (src/report-kit/) and inlined, so the HTML file makes no requests.
 */

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { TopLevelSpec } from "vega-lite";
import { z } from "zod";
import { UsageError } from "../errors.ts";
import { esc } from "../report-kit/escape-html.ts";
import { renderSvg, VEGA_LITE_SCHEMA } from "../report-kit/vega-svg.ts";
import { readTrainingLog, summarize, type TrainingStep } from "./training-log.ts";

const WIDTH = 640;

type Field = keyof TrainingStep & string;

const has = (steps: readonly TrainingStep[], field: Field) => steps.some((s) => s[field] != null);

export function rewardSpec(steps: readonly TrainingStep[]): TopLevelSpec {
  const values = steps.map((s) => ({
    step: s.step,
    mean: s.mean_reward ?? null,
    min: s.min_reward ?? null,
    max: s.max_reward ?? null,
    rolling: s.rolling_mean_reward ?? null,
  }));
  const x = { field: "step", type: "quantitative", title: "step", axis: { tickMinStep: 1 } } as const;
  const y = { type: "quantitative", scale: { domain: [0, 1] }, title: "reward" } as const;
  const layers: object[] = [
    {
      transform: [{ filter: "isValid(datum.min) && isValid(datum.max)" }],
      mark: { type: "area", color: "#4c78a8", opacity: 0.2 },
      encoding: { x, y: { ...y, field: "min" }, y2: { field: "max" } },
    },
    {
      transform: [{ filter: "isValid(datum.mean)" }],
      mark: { type: "line", color: "#4c78a8", strokeWidth: 2, point: steps.length <= 60 },
      encoding: { x, y: { ...y, field: "mean" } },
    },
  ];
  if (has(steps, "rolling_mean_reward")) {
    layers.push({
      transform: [{ filter: "isValid(datum.rolling)" }],
      mark: { type: "line", color: "#e45756", strokeDash: [6, 4] },
      encoding: { x, y: { ...y, field: "rolling" } },
    });
  }
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: {
      text: "Mean reward per step (line) within the group min–max band",
      subtitle: has(steps, "rolling_mean_reward") ? "dashed: rolling mean used for early stopping" : "",
    },
    width: WIDTH,
    height: 260,
    data: { values },
    layer: layers,
  } as TopLevelSpec;
}

/**
 * A y scale that fits the values: their range, padded when it is empty (a constant series sits in the
 * middle of a real axis instead of on a one-value axis), never below 0 for values that are not.
 */
export function fitDomain(values: readonly number[]): [number, number] | undefined {
  if (values.length === 0) return undefined;
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  if (hi > lo) return undefined;
  const pad = Math.abs(lo) / 2 || 1;
  return [lo >= 0 ? Math.max(0, lo - pad) : lo - pad, hi + pad];
}

/** A single metric per step; `domain` fixes the y scale (e.g. [0, 1] for a share). */
export function metricSpec(
  steps: readonly TrainingStep[],
  field: Field,
  title: string,
  yTitle: string,
  fixed?: [number, number],
): TopLevelSpec {
  const values = steps.map((s) => s[field]).filter((v): v is number => typeof v === "number");
  const domain = fixed ?? fitDomain(values);
  return {
    $schema: VEGA_LITE_SCHEMA,
    title,
    width: WIDTH,
    height: 160,
    data: { values: steps.map((s) => ({ step: s.step, value: s[field] ?? null })) },
    transform: [{ filter: "isValid(datum.value)" }],
    mark: {
      type: "line",
      color: "#54a24b",
      strokeWidth: 2,
      point: steps.length <= 60 ? { color: "#54a24b" } : false,
    },
    encoding: {
      x: { field: "step", type: "quantitative", title: "step", axis: { tickMinStep: 1 } },
      y: {
        field: "value",
        type: "quantitative",
        title: yTitle,
        // Labels as short as the values need (no 0.000000), on a scale that fits them.
        axis: { format: "~g" },
        scale: domain ? { domain, nice: false } : { zero: false, nice: true },
      },
    },
  } as TopLevelSpec;
}

const num = (value: number | null, digits = 3) => (value === null ? "–" : value.toFixed(digits));

/** The whole report page for a run directory's log. */
export async function trainingReportHtml(
  steps: readonly TrainingStep[],
  title: string,
  evaluation?: Evaluation,
): Promise<string> {
  const specs: TopLevelSpec[] = [
    rewardSpec(steps),
    metricSpec(
      steps,
      "zero_variance_share",
      "Share of zero-variance groups (no learning signal)",
      "share",
      [0, 1],
    ),
  ];
  if (has(steps, "kl")) specs.push(metricSpec(steps, "kl", "KL to the reference policy", "KL"));
  if (has(steps, "mean_tool_calls"))
    specs.push(metricSpec(steps, "mean_tool_calls", "Tool calls per rollout", "calls"));
  if (has(steps, "mean_completion_length"))
    specs.push(metricSpec(steps, "mean_completion_length", "Completion length (tokens)", "tokens"));
  if (has(steps, "grad_norm"))
    specs.push(metricSpec(steps, "grad_norm", "Gradient norm (0: no group carried a signal)", "norm"));
  const charts = await Promise.all(specs.map(renderSvg));
  const s = summarize(steps);
  const rows: [string, string][] = [
    ["steps logged", `${s.steps} (last step ${s.lastStep})`],
    ["mean reward, first → last step", `${num(s.firstMeanReward)} → ${num(s.lastMeanReward)}`],
    ["best rolling mean reward", num(s.bestRollingMean)],
    ["stopped early at step", s.earlyStopStep === null ? "no" : String(s.earlyStopStep)],
    ["mean share of zero-variance groups", num(s.meanZeroVarianceShare)],
    ...evaluationRows(evaluation),
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:760px;color:#222}
table{border-collapse:collapse;margin:1rem 0}td{padding:.2rem .8rem;border-bottom:1px solid #ddd}
figure{margin:1.5rem 0}</style></head>
<body><h1>${esc(title)}</h1>
<table>${rows.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(v)}</td></tr>`).join("")}</table>
${charts.map((svg) => `<figure>${svg}</figure>`).join("\n")}
</body></html>
`;
}

/** The learning recipe's before/after `atlas-gym eval` summaries (python/atlas_gym/recipe.py writes them). */
const summarySchema = z.looseObject({
  episodes: z.number(),
  mean_reward: z.number().nullable(),
  mean_reward_ci: z.tuple([z.number(), z.number()]).nullable().optional(),
  pass_rate: z.number().nullable(),
  pass_rate_ci: z.tuple([z.number(), z.number()]).nullable().optional(),
});
/** A paired change (`atlas-gym compare` of the two evaluations over the same tasks). */
const deltaSchema = z.looseObject({
  delta: z.number().nullable(),
  delta_ci: z.tuple([z.number(), z.number()]).nullable(),
});
const evaluationSchema = z.looseObject({
  before: z.looseObject({ overall: summarySchema }).optional(),
  after: z.looseObject({ overall: summarySchema }).optional(),
  change: z.looseObject({ mean_reward: deltaSchema, pass_rate: deltaSchema }).optional(),
});
export type Evaluation = z.output<typeof evaluationSchema>;

export const EVALUATION = "evaluation.json";

/** `<dir>/evaluation.json`, or undefined when the run had no before/after evaluation. */
export function readEvaluation(dir: string): Evaluation | undefined {
  const path = join(dir, EVALUATION);
  if (!existsSync(path)) return undefined;
  const parsed = evaluationSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success)
    throw new UsageError(`${path}: not an evaluation record (${parsed.error.issues[0]?.message})`);
  return parsed.data;
}

const withCi = (value: number | null, ci?: [number, number] | null) =>
  ci ? `${num(value)} [${num(ci[0])}, ${num(ci[1])}]` : num(value);

function evaluationRows(evaluation?: Evaluation): [string, string][] {
  if (!evaluation?.before && !evaluation?.after) return [];
  const b = evaluation.before?.overall;
  const a = evaluation.after?.overall;
  const side = (x: typeof b, field: "mean_reward" | "pass_rate") =>
    x ? withCi(x[field], x[field === "mean_reward" ? "mean_reward_ci" : "pass_rate_ci"]) : "–";
  return [
    [
      "eval mean reward, before GRPO → after (95% CI)",
      `${side(b, "mean_reward")} → ${side(a, "mean_reward")}`,
    ],
    ["eval pass rate, before GRPO → after (95% CI)", `${side(b, "pass_rate")} → ${side(a, "pass_rate")}`],
    ["eval episodes, before / after", `${b?.episodes ?? "–"} / ${a?.episodes ?? "–"}`],
    ...changeRows(evaluation.change),
  ];
}

const signed = (x: number | null) => (x === null ? "–" : `${x >= 0 ? "+" : "−"}${num(Math.abs(x))}`);
const delta = (d: z.output<typeof deltaSchema>) =>
  d.delta_ci ? `${signed(d.delta)} [${signed(d.delta_ci[0])}, ${signed(d.delta_ci[1])}]` : signed(d.delta);

/** The paired change rows, when the recipe's last stage compared the two evaluations. */
function changeRows(change?: Evaluation["change"]): [string, string][] {
  if (!change) return [];
  return [
    ["eval change in mean reward, paired over the tasks (95% CI)", delta(change.mean_reward)],
    ["eval change in pass rate, paired over the tasks (95% CI)", delta(change.pass_rate)],
  ];
}

/** Writes `<dir>/training_report.html` (or `out`) from `<dir>/training_log.jsonl`; returns its path and steps. */
export async function writeTrainingReport(
  dir: string,
  out?: string,
): Promise<{ path: string; steps: number }> {
  const steps = readTrainingLog(dir);
  const path = out ?? join(dir, "training_report.html");
  const title = `Training dynamics: ${basename(resolve(dir))}`;
  writeFileSync(path, await trainingReportHtml(steps, title, readEvaluation(dir)));
  return { path, steps: steps.length };
}
