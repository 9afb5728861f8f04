import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { fixtureConfig, writeRun } from "../../test/support/run-fixtures.ts";
import { WORKFLOW_IDS, workflowRun } from "../../test/support/workflow-fixtures.ts";
import type { EpisodeRecord } from "./episode-record.ts";
import { horizonResults } from "./horizon-metrics.ts";
import { buildResults, outcomeOf } from "./metrics.ts";
import { terminalTable } from "./report-md.ts";
import { runFiles } from "./run-dir.ts";

const { W, A } = WORKFLOW_IDS;
const config = fixtureConfig([W, A]);

async function reportsOf(records: EpisodeRecord[]) {
  const { dir, results } = await writeRun(records);
  const files = runFiles(dir);
  return {
    results,
    json: JSON.parse(readFileSync(files.results, "utf8")),
    md: readFileSync(files.reportMd, "utf8"),
    html: readFileSync(files.reportHtml, "utf8"),
    terminal: terminalTable(results, 2),
  };
}

/** "0.533 [0.00, 0.80]" as the tables print a figure and its interval. */
const cell = (value: number, ci: [number, number]) =>
  `${value.toFixed(3)} [${ci[0].toFixed(2)}, ${ci[1].toFixed(2)}]`;

describe("horizon reports", () => {
  it("writes the per-horizon figures into results.json, beside the per-scenario ones", async () => {
    const records = workflowRun();
    const { json } = await reportsOf(records);
    const outcomes = records.map(outcomeOf);
    expect(json).toEqual({
      ...buildResults({ model: config.model, rewardMode: "paper", outcomes, k: 2, scenarios: [W, A] }),
      ...horizonResults(outcomes, 2),
    });
    expect(Object.keys(json.horizons)).toEqual(["1", "2", "3"]);
    expect(json.horizons["2"].progress_rate).toBe(0.5);
  });

  it("prints a table per horizon and the first failed step in the terminal summary", async () => {
    const { results, terminal } = await reportsOf(workflowRun());
    const h2 = results.horizons!["2"]!;
    const h3 = results.horizons!["3"]!;
    const line = (label: string, h: typeof h2, held: string) =>
      new RegExp(
        `${label}\\s+${h.episodes}\\s+${h.episodes_scored}\\s+${esc(cell(h.mean_reward!, h.mean_reward_ci!))}\\s+${esc(cell(h.pass_rate!, h.pass_rate_ci!))}\\s+${esc(cell(h.progress_rate!, h.progress_rate_ci!))}\\s+${held}`,
      );
    expect(terminal).toMatch(
      /per horizon:\nhorizon\s+episodes\s+scored\s+mean \[95% CI\]\s+pass \[95% CI\]\s+progress/,
    );
    expect(terminal).toMatch(line("2 steps", h2, "1 of 3"));
    expect(terminal).toMatch(line("3 steps", h3, "0 of 2"));
    expect(terminal).toMatch(
      /1 \(single family\)\s+2\s+2\s+0\.500 \[0\.50, 0\.50\]\s+0\.500 \[0\.50, 0\.50\]\s+—\s+—/,
    );
    expect(terminal).toContain(
      "  horizon 2: step 1 ×1 (missing_mutation ×1), step 2 ×1 (wrong_value ×1), every step held ×1",
    );
    expect(terminal).toContain(
      "  horizon 3: step 2 ×1 (collateral_change ×1), step 3 ×1 (unhonoured_binding ×1), every step held ×0",
    );
  });

  it("adds a Horizons section to report.md and report.html, with a chart and a step table per horizon", async () => {
    const { md, html, results } = await reportsOf(workflowRun());
    const h2 = results.horizons!["2"]!;
    expect(md).toContain(
      `| 2 steps | 3 | 3 | ${cell(h2.mean_reward!, h2.mean_reward_ci!)} | ${cell(h2.pass_rate!, h2.pass_rate_ci!)} | ${cell(h2.progress_rate!, h2.progress_rate_ci!)} | 1 of 3 |`,
    );
    expect(md).toContain("### Horizon 3: first failed step");
    expect(md).toContain("| 1 | 0 | — | — |");
    expect(md).toContain("| 3 | 1 | unhonoured_binding ×1 | confluence-page-update-v1 ×1 |");
    expect(md.indexOf("## Horizons")).toBeLessThan(md.indexOf("## How the figures are defined"));

    // The four charts of every report, plus the horizon chart.
    expect(html.match(/<svg /g)).toHaveLength(5);
    expect(html).toContain("<h2>Horizons</h2>");
    expect(html).toContain("Per horizon (steps per task)");
    expect(html).toContain("<h3>Horizon 2: first failed step</h3>");
    expect(html).toContain('<tr><td>2</td><td class="n">1</td><td>wrong_value ×1</td>');
    expect(html.match(/\s(?:src|href)="(?!#|data:)[^"]*"/g)).toBeNull();
    // Each workflow episode's drill-down line says how far it got.
    expect(html).toContain("2 of 3 steps held · first failed: step 3 (unhonoured_binding)");
    expect(html).toContain("2 of 2 steps held");
  });

  it("leaves a single-family run's results and reports exactly as they were", async () => {
    const single = workflowRun().filter((r) => r.steps === undefined);
    const { json, md, html, terminal, results } = await reportsOf(single);
    expect(json.horizons).toBeUndefined();
    expect(json).toEqual(
      buildResults({
        model: config.model,
        rewardMode: "paper",
        outcomes: single.map(outcomeOf),
        k: 2,
        scenarios: [A],
      }),
    );
    expect(terminal).toBe(terminalTable({ ...results, horizons: undefined }, 2));
    expect(terminal).not.toMatch(/horizon/i);
    expect(md).not.toMatch(/horizon/i);
    expect(html).not.toMatch(/horizon/i);
    // Mean reward, pass rate and reward distribution (no failure to chart), and no horizon chart.
    expect(html.match(/<svg /g)).toHaveLength(3);
  });
});

function esc(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
