/**
 * Writes a run's results.json, report.md and report.html from its episode log. The log is read twice —
 * once reduced to outcomes for the metrics, once keeping only the traces the drill-down shows — so a
 * run of many thousands of episodes never holds every trace in memory.
 */
import { writeFileSync } from "node:fs";
import { HELD_OUT } from "../scenarios/index.ts";
import { episodeKey, readEpisodeLog } from "./episode-log.ts";
import { horizonResults } from "./horizon-metrics.ts";
import { buildResults, type EpisodeOutcome, type EvalResults, outcomeOf } from "./metrics.ts";
import type { Provenance } from "./provenance.ts";
import { drillDownOutcomes, htmlReport, MAX_DRILL_DOWN, reportOrder } from "./report-html.ts";
import { markdownReport } from "./report-md.ts";
import { type EvalConfig, runFiles } from "./run-dir.ts";

export interface WriteReportsOptions {
  /** The episodes that belong to the run (others in the log, e.g. from a larger earlier plan, are left out). */
  keys?: ReadonlySet<string>;
  /** Scenario ids in report order. */
  scenarios: readonly string[];
  maxDrillDown?: number;
  /** Written into results.json. */
  provenance?: Provenance;
}

export async function writeReports(
  dir: string,
  config: EvalConfig,
  { keys, scenarios, maxDrillDown = MAX_DRILL_DOWN, provenance }: WriteReportsOptions,
): Promise<{ results: EvalResults; outcomes: EpisodeOutcome[] }> {
  const files = runFiles(dir);
  const inRun = (o: { taskId: string; sample: number }) => !keys || keys.has(episodeKey(o.taskId, o.sample));
  const outcomes = readEpisodeLog(files.episodes, outcomeOf).episodes.filter(inRun);
  const results: EvalResults = {
    ...buildResults({
      model: config.model,
      rewardMode: config.reward,
      outcomes,
      k: config.k,
      scenarios,
      provenance,
      heldOut: HELD_OUT,
    }),
    ...horizonResults(outcomes, config.k),
  };
  writeFileSync(files.results, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(files.reportMd, markdownReport({ results, config, outcomes }));

  const shown = new Set(
    drillDownOutcomes(outcomes, scenarios, maxDrillDown).map((o) => episodeKey(o.taskId, o.sample)),
  );
  const order = reportOrder(scenarios);
  const episodes = readEpisodeLog(files.episodes, (t) =>
    shown.has(episodeKey(t.task_id, t.sample)) ? t : null,
  )
    .episodes.filter((t) => t !== null)
    .sort((a, b) => order(outcomeOf(a), outcomeOf(b)));
  writeFileSync(files.reportHtml, await htmlReport({ results, config, outcomes, episodes }));
  return { results, outcomes };
}
