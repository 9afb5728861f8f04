/**
 * The report's charts as Vega-Lite specs, rendered to SVG on the server (no browser, no DOM): mean reward
 * and pass rate per scenario with their bootstrap confidence intervals, the failure taxonomy, and the
 * distribution of episode rewards (scored episodes only).
 * The SVG (src/report-kit/vega-svg.ts) is inlined into report.html, so the report makes no requests.
 */
import type { TopLevelSpec } from "vega-lite";
import { VEGA_LITE_SCHEMA } from "../report-kit/vega-svg.ts";
import { type EpisodeOutcome, type EvalResults, FAILURE_CODES } from "./metrics.ts";

/**
 * Kelly's 22 colours of maximum contrast less white and the near-black: 21 hues that stay apart, so
 * a run of up to 21 families never shows two families in one colour (Vega's tableau10 repeats after 10).
 */
export const FAMILY_PALETTE = [
  "#0067a5",
  "#f38400",
  "#008856",
  "#be0032",
  "#875692",
  "#f3c300",
  "#a1caf1",
  "#882d17",
  "#8db600",
  "#e68fac",
  "#654522",
  "#2b3d26",
  "#f99379",
  "#604e97",
  "#dcd300",
  "#b3446c",
  "#848482",
  "#c2b280",
  "#e25822",
  "#f6a600",
  "#222222",
] as const;

/**
 * One colour per family, fixed by the run's scenario order (the same family keeps its colour in every
 * chart of the page); past 21 families the colours would cycle, so the legend lists every family.
 */
export function familyColors(scenarios: readonly string[]) {
  return {
    field: "scenario",
    type: "nominal",
    scale: {
      domain: [...scenarios],
      range: scenarios.map((_, i) => FAMILY_PALETTE[i % FAMILY_PALETTE.length]),
    },
    legend: { labelLimit: 320, symbolLimit: 0, values: [...scenarios] },
  } as const;
}

/** A bar per scenario (and overall) with its bootstrap interval as a whisker; the y scale is 0–1. */
function barWithInterval(
  results: EvalResults,
  title: string,
  yTitle: string,
  pick: (s: EvalResults["overall"]) => { value: number | null; ci: [number, number] | null },
): TopLevelSpec {
  const values = [...Object.entries(results.scenarios), ["overall", results.overall] as const]
    .filter(([, s]) => s.episodes_scored > 0)
    .map(([scenario, s]) => {
      const { value, ci } = pick(s);
      return { scenario, value, low: ci?.[0] ?? value, high: ci?.[1] ?? value };
    });
  const y = { type: "quantitative", scale: { domain: [0, 1] }, title: yTitle } as const;
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: { text: title, subtitle: "whiskers: 95% bootstrap interval over tasks" },
    width: { step: 46 }, // 19 families and overall fit the 1100 px page
    height: 220,
    data: { values },
    encoding: {
      x: {
        field: "scenario",
        type: "nominal",
        sort: null,
        // Vega estimates a label's width as 0.8 × font size per character: 320 keeps the longest id whole.
        axis: { labelAngle: -30, labelLimit: 320, title: null },
      },
    },
    layer: [
      {
        mark: { type: "bar", color: "#4c78a8" },
        encoding: {
          y: { ...y, field: "value" },
          tooltip: [
            { field: "value", format: ".3f", title: yTitle },
            { field: "low", format: ".3f" },
            { field: "high", format: ".3f" },
          ],
        },
      },
      {
        mark: { type: "rule", color: "#222", strokeWidth: 2 },
        encoding: { y: { ...y, field: "low" }, y2: { field: "high" } },
      },
      ...["low", "high"].map((field) => ({
        mark: { type: "tick", color: "#222", thickness: 2, size: 18 },
        encoding: { y: { ...y, field } },
      })),
    ],
  } as unknown as TopLevelSpec;
}

export function meanRewardSpec(results: EvalResults): TopLevelSpec {
  return barWithInterval(results, "Mean reward per scenario", "mean reward", (s) => ({
    value: s.mean_reward,
    ci: s.mean_reward_ci,
  }));
}

export function passRateSpec(results: EvalResults): TopLevelSpec {
  return barWithInterval(results, "Pass rate per scenario (end state verified)", "pass rate", (s) => ({
    value: s.pass_rate,
    ci: s.pass_rate_ci,
  }));
}

/** Null when no episode failed in any counted way. */
export function failureSpec(results: EvalResults): TopLevelSpec | null {
  const values = Object.entries(results.scenarios).flatMap(([scenario, s]) =>
    FAILURE_CODES.filter((code) => s.failures[code] > 0).map((code) => ({
      scenario,
      code,
      episodes: s.failures[code],
    })),
  );
  if (values.length === 0) return null;
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: "Failure taxonomy (episodes showing each failure)",
    width: 560,
    height: { step: 22 },
    data: { values },
    mark: "bar",
    encoding: {
      y: { field: "code", type: "nominal", sort: [...FAILURE_CODES], title: null },
      x: { field: "episodes", type: "quantitative", title: "episodes", axis: { tickMinStep: 1 } },
      color: familyColors(Object.keys(results.scenarios)),
    },
  } as TopLevelSpec;
}

/** Rewards of scored episodes in ten bins of 0.1 (the last one includes 1.0), stacked by scenario. */
export function rewardDistributionSpec(
  outcomes: readonly EpisodeOutcome[],
  scenarios: readonly string[] = [...new Set(outcomes.map((o) => o.scenario))],
): TopLevelSpec {
  const counts = new Map<string, number>();
  for (const o of outcomes.filter((x) => x.error === null)) {
    const bin = Math.min(9, Math.max(0, Math.floor(o.reward * 10)));
    const key = `${o.scenario}\u0000${bin}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const values = [...counts].map(([key, episodes]) => {
    const [scenario, bin] = key.split("\u0000") as [string, string];
    const lo = Number(bin) / 10;
    return { scenario, bin: `${lo.toFixed(1)}–${(lo + 0.1).toFixed(1)}`, episodes };
  });
  const bins = Array.from({ length: 10 }, (_, i) => `${(i / 10).toFixed(1)}–${((i + 1) / 10).toFixed(1)}`);
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: "Reward distribution (episodes per reward bin)",
    width: 420,
    height: 200,
    data: { values },
    mark: "bar",
    encoding: {
      x: { field: "bin", type: "ordinal", scale: { domain: bins }, title: "reward", axis: { labelAngle: 0 } },
      y: { field: "episodes", type: "quantitative", stack: "zero", axis: { tickMinStep: 1 } },
      color: familyColors(scenarios),
    },
  } as TopLevelSpec;
}
