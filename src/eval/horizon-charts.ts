/**
 * report.html's horizon chart (Vega-Lite, rendered to inline SVG like the other charts): per horizon,
 * the pass rate, progress rate and mean reward side by side, each with its 95% bootstrap interval as a
 * whisker, so the drop of success against the steps that still held shows at a glance.
 */
import type { TopLevelSpec } from "vega-lite";
import { VEGA_LITE_SCHEMA } from "../report-kit/vega-svg.ts";
import type { HorizonResults } from "./horizon-metrics.ts";
import type { EvalResults } from "./metrics.ts";

const FIGURES = [
  ["pass rate", "pass_rate", "pass_rate_ci"],
  ["progress rate", "progress_rate", "progress_rate_ci"],
  ["mean reward", "mean_reward", "mean_reward_ci"],
] as const satisfies readonly (readonly [string, keyof HorizonResults, keyof HorizonResults])[];

/** Null when the run holds no workflow episode. */
export function horizonSpec(results: EvalResults): TopLevelSpec | null {
  if (!results.horizons) return null;
  const values = Object.entries(results.horizons).flatMap(([horizon, r]) =>
    FIGURES.flatMap(([figure, key, ciKey]) => {
      const value = r[key] as number | null;
      const ci = r[ciKey] as [number, number] | null;
      return value === null
        ? []
        : [{ horizon, figure, value, low: ci?.[0] ?? value, high: ci?.[1] ?? value }];
    }),
  );
  const y = { type: "quantitative", scale: { domain: [0, 1] }, title: null } as const;
  const order = FIGURES.map(([figure]) => figure);
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: { text: "Per horizon (steps per task)", subtitle: "whiskers: 95% bootstrap interval over tasks" },
    width: { step: 28 }, // with xOffset the step is one bar (horizons × figures of them), not one horizon
    height: 220,
    data: { values },
    encoding: {
      x: { field: "horizon", type: "ordinal", title: "horizon (1 = single family)", axis: { labelAngle: 0 } },
      xOffset: { field: "figure", type: "nominal", sort: order },
    },
    layer: [
      {
        mark: "bar",
        encoding: {
          y: { ...y, field: "value" },
          color: {
            field: "figure",
            type: "nominal",
            sort: order,
            scale: { scheme: "tableau10" },
            title: null,
          },
          tooltip: [
            { field: "figure" },
            { field: "value", format: ".3f" },
            { field: "low", format: ".3f" },
            { field: "high", format: ".3f" },
          ],
        },
      },
      {
        mark: { type: "rule", color: "#222", strokeWidth: 2 },
        encoding: { y: { ...y, field: "low" }, y2: { field: "high" } },
      },
    ],
  } as unknown as TopLevelSpec;
}
