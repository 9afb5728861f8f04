/**
 * `atlas-gym view` over a 20,000-episode run: the time to serve the episode list (first request, which
 * indexes the log, then later ones from the index, filtered or not) and one episode page (read back by
 * its line, replayed for the end state), each as a ratio against reading the run's episodes.jsonl with
 * the eval module's reader. Served over real loopback HTTP. The run is six real episodes (the view
 * tests' runs) repeated as samples, with a results.json computed from them.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readEpisodeLog } from "../src/eval/episode-log.ts";
import type { EpisodeRecord } from "../src/eval/episode-record.ts";
import { buildResults, outcomeOf } from "../src/eval/metrics.ts";
import { runFiles } from "../src/eval/run-dir.ts";
import { startViewServer } from "../src/view/start-view-server.ts";
import { writeViewRuns } from "../test/support/view-runs.ts";
import { type BenchRow, fmt } from "./measure.ts";

export const BIG_RUN_EPISODES = 20_000;

/** Median milliseconds of `times` runs of `fn`. */
async function median(times: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await fn();
    ms.push(performance.now() - start);
  }
  return ms.sort((a, b) => a - b)[Math.floor(ms.length / 2)]!;
}

async function bigRun(root: string): Promise<string> {
  const { b } = await writeViewRuns(join(root, "seed"));
  const records = readFileSync(runFiles(b).episodes, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as EpisodeRecord);
  const dir = join(root, "big");
  const lines: string[] = [];
  for (let i = 0; lines.length < BIG_RUN_EPISODES; i++)
    for (const r of records)
      if (lines.length < BIG_RUN_EPISODES) lines.push(JSON.stringify({ ...r, sample: i }));
  rmSync(dir, { recursive: true, force: true });
  cpSync(b, dir, { recursive: true });
  writeFileSync(runFiles(dir).episodes, `${lines.join("\n")}\n`);
  const outcomes = readEpisodeLog(runFiles(dir).episodes, outcomeOf).episodes;
  const results = buildResults({ model: "policy:odd-fail", rewardMode: "paper", outcomes, k: 1 });
  writeFileSync(runFiles(dir).results, `${JSON.stringify(results)}\n`);
  return dir;
}

export async function benchView(): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), "atlas-bench-view-"));
  try {
    const dir = await bigRun(root);
    const read = await median(5, () => readEpisodeLog(runFiles(dir).episodes));
    const server = await startViewServer({ roots: [dir], playOut: join(root, "play"), port: 0 });
    try {
      const get = async (path: string) => {
        const res = await fetch(`${server.url}${path}`);
        if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
        return res.text();
      };
      const coldStart = performance.now();
      await get("/runs/big");
      const cold = performance.now() - coldStart;
      const list = await median(9, () => get("/runs/big"));
      const filtered = await median(9, () => get("/runs/big?verdict=failed&q=status&page=3"));
      const episode = await median(9, () => get("/runs/big/episodes/jira-create-issue-v1~eval~1~1234"));
      const ratio = (ms: number) => `${fmt(ms, 1)} ms = ${fmt(ms / read, 3)}× reading the log`;
      return [
        {
          name: `reading episodes.jsonl of ${fmt(BIG_RUN_EPISODES, 0)} episodes (readEpisodeLog)`,
          value: `${fmt(read, 1)} ms`,
        },
        { name: "episode list, first request (indexes the log)", value: ratio(cold) },
        { name: "episode list, later requests (page 1 of 400)", value: ratio(list), target: "< 0.1×" },
        { name: "episode list, filtered and searched", value: ratio(filtered), target: "< 0.1×" },
        { name: "one episode page (read by its line, replayed)", value: ratio(episode), target: "< 0.1×" },
      ];
    } finally {
      await server.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
