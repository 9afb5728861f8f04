/**
 * Test support: a run directory written from hand-built episode records (episodes.jsonl, then
 * results.json and the reports as `eval` writes them), and the fixture run configuration it uses.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EpisodeRecord } from "../../src/eval/episode-record.ts";
import type { EvalResults } from "../../src/eval/metrics.ts";
import { type EvalConfig, runFiles } from "../../src/eval/run-dir.ts";
import { writeReports } from "../../src/eval/write-reports.ts";

/** The settings of a fixture run over `scenarios` (k = 2, paper reward). */
export const fixtureConfig = (scenarios: string[]): EvalConfig => ({
  model: "policy:fixture",
  scenarios,
  split: "eval",
  k: 2,
  concurrency: 1,
  seed: 0,
  reward: "paper",
  maxTurns: 10,
  tools: "default",
  provider: {},
});

/** A new run directory holding `records` and the results and reports written from them. */
export async function writeRun(
  records: readonly EpisodeRecord[],
): Promise<{ dir: string; results: EvalResults }> {
  const dir = mkdtempSync(join(tmpdir(), "atlas-run-"));
  writeFileSync(runFiles(dir).episodes, records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  const scenarios = [...new Set(records.map((r) => r.scenario))];
  const { results } = await writeReports(dir, fixtureConfig(scenarios), { scenarios });
  return { dir, results };
}
