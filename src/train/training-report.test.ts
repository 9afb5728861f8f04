import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSvg } from "../report-kit/vega-svg.ts";
import { parseTrainingLog, readTrainingLog, summarize } from "./training-log.ts";
import { fitDomain, metricSpec, trainingReportHtml, writeTrainingReport } from "./training-report.ts";

const step = (s: number, mean: number | null, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    step: s,
    mean_reward: mean,
    min_reward: mean === null ? null : Math.max(0, mean - 0.25),
    max_reward: mean === null ? null : Math.min(1, mean + 0.25),
    std_reward: 0.1,
    zero_variance_share: 0.5 - s / 10,
    kl: null,
    mean_tool_calls: 3,
    mean_completion_length: 200,
    ...extra,
  });

describe("training log and report", () => {
  it("reads the log in step order and summarises it", () => {
    const steps = parseTrainingLog(
      [
        step(2, 0.5, { rolling_mean_reward: 0.4 }),
        step(1, 0.3),
        "",
        step(3, null, { early_stop: true }),
      ].join("\n"),
      "log",
    );
    expect(steps.map((s) => s.step)).toEqual([1, 2, 3]);
    expect(summarize(steps)).toEqual({
      steps: 3,
      lastStep: 3,
      firstMeanReward: 0.3,
      lastMeanReward: 0.5,
      bestRollingMean: 0.4,
      earlyStopStep: 3,
      meanZeroVarianceShare: 0.3,
    });
  });

  it("names the line of a malformed entry, and an empty or missing log", () => {
    expect(() => parseTrainingLog(`${step(1, 0.2)}\n{"step": "one"}\n`, "log")).toThrow(
      /^log:2: not a training step/,
    );
    expect(() => parseTrainingLog(`${step(1, 0.2)}\nnot json\n`, "log")).toThrow(/^log:2: not JSON/);
    expect(() => parseTrainingLog("\n", "log")).toThrow(/no training steps/);
    expect(() => readTrainingLog("/nonexistent-run")).toThrow(/training_log\.jsonl .*ENOENT/);
  });

  it("renders mean reward with its min–max band and the zero-variance share as inline SVG", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-report-"));
    writeFileSync(
      join(dir, "training_log.jsonl"),
      Array.from({ length: 5 }, (_, i) => step(i + 1, 0.2 * i)).join("\n"),
    );
    const html = await trainingReportHtml(readTrainingLog(dir), "Training <run>");
    expect(html).toContain("<title>Training &lt;run&gt;</title>");
    const svgs = html.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
    expect(svgs).toHaveLength(4); // reward, zero-variance share, tool calls, completion length (no KL logged)
    expect(svgs[0]).toContain("Mean reward per step");
    expect(svgs[0]).toMatch(/<path[^>]*aria-roledescription="area mark"/);
    expect(svgs[1]).toContain("zero-variance");
    expect(html).not.toContain("KL to the reference");
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
    expect(readFileSync(join(dir, "training_log.jsonl"), "utf8")).toContain('"step":5');
  });

  it("fits a constant series' axis around it, with short labels", async () => {
    const steps = parseTrainingLog(
      Array.from({ length: 4 }, (_, i) => step(i + 1, 0.5, { kl: 0, mean_tool_calls: 3 })).join("\n"),
      "log",
    );
    expect(fitDomain([3, 3])).toEqual([1.5, 4.5]);
    expect(fitDomain([0, 0])).toEqual([0, 1]);
    expect(fitDomain([1, 2])).toBeUndefined();
    for (const [field, value] of [
      ["mean_tool_calls", 3],
      ["kl", 0],
    ] as const) {
      const svg = await renderSvg(metricSpec(steps, field, "t", "y"));
      const labels = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
      expect(
        labels.some((l) => /\.0{4,}/.test(l)),
        labels.join(" "),
      ).toBe(false);
      expect(labels.filter((l) => /^[\d.]+$/.test(l)).length).toBeGreaterThan(6);
      // The line lies within the plot (y from 0 at the top to 160 at the axis), not above it.
      const y = Number(/aria-roledescription="line mark" d="M0,([\d.]+)/.exec(svg)![1]);
      expect(y).toBeGreaterThan(0);
      expect(y).toBeLessThanOrEqual(160);
      expect(value === 0 ? y === 160 : y < 160).toBe(true);
    }
  });

  it("shows the learning recipe's before/after evaluation and the gradient norm", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-report-"));
    writeFileSync(
      join(dir, "training_log.jsonl"),
      [step(1, 0.2, { grad_norm: 0 }), step(2, 0.4, { grad_norm: 1.5 })].join("\n"),
    );
    const overall = (mean: number, pass: number) => ({
      episodes: 32,
      mean_reward: mean,
      mean_reward_ci: [mean - 0.1, mean + 0.1],
      pass_rate: pass,
      pass_rate_ci: [0, pass + 0.2],
    });
    /** The report of this run with `evaluation` as its evaluation.json. */
    const reportWith = async (evaluation: object) => {
      writeFileSync(join(dir, "evaluation.json"), JSON.stringify(evaluation));
      await writeTrainingReport(dir);
      return readFileSync(join(dir, "training_report.html"), "utf8");
    };
    const before = { overall: overall(0.3, 0.125) };
    const after = { overall: overall(0.45, 0.25) };
    const html = await reportWith({ before, after });
    expect(html).toContain(
      "eval mean reward, before GRPO → after (95% CI)</td><td>0.300 [0.200, 0.400] → 0.450",
    );
    expect(html).toContain(
      "eval pass rate, before GRPO → after (95% CI)</td><td>0.125 [0.000, 0.325] → 0.250",
    );
    expect(html).toContain("Gradient norm");
    expect(html).not.toContain("paired over the tasks");

    // The recipe's last stage adds the paired change (atlas-gym compare of the two evaluations).
    const change = {
      mean_reward: { delta: 0.122, delta_ci: [0.062, 0.189] },
      pass_rate: { delta: -0.014, delta_ci: [-0.05, 0.08] },
    };
    const withChange = await reportWith({ before, after, change });
    expect(withChange).toContain(
      "eval change in mean reward, paired over the tasks (95% CI)</td><td>+0.122 [+0.062, +0.189]",
    );
    expect(withChange).toContain(
      "eval change in pass rate, paired over the tasks (95% CI)</td><td>−0.014 [−0.050, +0.080]",
    );
    // A change compare could not compute (no scored episodes on a side) is shown as such, not refused.
    const none = { delta: null, delta_ci: null };
    expect(await reportWith({ before, change: { mean_reward: none, pass_rate: none } })).toContain(
      "eval change in mean reward, paired over the tasks (95% CI)</td><td>–</td>",
    );
    writeFileSync(join(dir, "evaluation.json"), JSON.stringify({ before: { overall: { episodes: "x" } } }));
    await expect(writeTrainingReport(dir)).rejects.toThrow(/evaluation\.json: not an evaluation record/);
  });
});
