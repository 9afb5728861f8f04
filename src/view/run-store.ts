/**
 * The runs `atlas-gym view` shows: every eval run directory under the paths it was given (a run
 * directory itself, or a folder of them), found again on every request so runs added while it is open
 * appear. Each run is read with the eval module's readers (run.json, results.json, episodes.jsonl) into
 * light episode rows with the byte span of each line, cached until a file changes, so a run of 20,000
 * episodes lists at once and one episode is read back by its span alone. A run that cannot be read is
 * kept with the reason, never thrown at the server.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { type LineSpan, readEpisodeLog } from "../eval/episode-log.ts";
import type { EpisodeRecord } from "../eval/episode-record.ts";
import { buildResults, type EvalResults } from "../eval/metrics.ts";
import type { Provenance } from "../eval/provenance.ts";
import { reportOrder } from "../eval/report-html.ts";
import { type EvalConfig, readRunFile, runFiles } from "../eval/run-dir.ts";
import { HELD_OUT } from "../scenarios/index.ts";
import { type EpisodeRow, episodeRow } from "./episode-rows.ts";

export interface LoadedViewRun {
  id: string;
  dir: string;
  config?: EvalConfig;
  provenance?: Provenance;
  /** results.json, or (while the run is unfinished) the same figures computed from its episodes. */
  results?: EvalResults;
  /** Whether `results` came from results.json (false: computed from the log so far). */
  finished: boolean;
  rows: EpisodeRow[];
  byId: Map<string, EpisodeRow>;
  /** Why part of the run could not be read (a half-written run, a bad line); the page shows them. */
  problems: string[];
}

export interface RunStore {
  /** The runs found now, in the order of the paths given, then by directory name. */
  list(): LoadedViewRun[];
  get(id: string): LoadedViewRun | undefined;
  /** The full record of one episode, read back from its line; undefined when the line is gone. */
  record(run: LoadedViewRun, row: EpisodeRow): EpisodeRecord | undefined;
}

const isRunDir = (dir: string) => {
  const f = runFiles(dir);
  return existsSync(f.config) || existsSync(f.episodes) || existsSync(f.results);
};

/** Run directories under `roots`: each root that is one, else its sub-directories that are. */
export function findRunDirs(roots: readonly string[]): string[] {
  const dirs: string[] = [];
  for (const root of roots.map((r) => resolve(r))) {
    if (!existsSync(root)) continue;
    if (isRunDir(root)) dirs.push(root);
    else
      for (const entry of readdirSync(root, { withFileTypes: true }).sort((a, b) =>
        a.name.localeCompare(b.name),
      ))
        if (entry.isDirectory() && isRunDir(join(root, entry.name))) dirs.push(join(root, entry.name));
  }
  return [...new Set(dirs)];
}

/** A URL-safe run id from a directory name, unique among `taken`. */
function runId(dir: string, taken: Set<string>): string {
  const base = basename(dir).replace(/[^A-Za-z0-9._-]+/g, "-") || "run";
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

const stamp = (path: string) => {
  if (!existsSync(path)) return "-";
  const s = statSync(path);
  return `${s.size}:${s.mtimeMs}`;
};

function loadRun(id: string, dir: string): LoadedViewRun {
  const files = runFiles(dir);
  const problems: string[] = [];
  const run: LoadedViewRun = { id, dir, finished: false, rows: [], byId: new Map(), problems };
  try {
    const file = readRunFile(dir);
    if (file) Object.assign(run, file);
    else problems.push(`${files.config} is missing: the run's settings and provenance are unknown.`);
  } catch (error) {
    problems.push((error as Error).message);
  }
  try {
    const log = readEpisodeLog(files.episodes, (record, span) => episodeRow(record, span));
    const order = reportOrder(run.config?.scenarios ?? [...new Set(log.episodes.map((r) => r.scenario))]);
    run.rows = log.episodes.sort((a, b) => order(a.outcome, b.outcome));
    if (log.truncatedTail)
      problems.push(
        `The last line of ${files.episodes} is cut short (a run still writing, or killed); it is left out.`,
      );
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (!existsSync(files.episodes)) problems.push(`${files.episodes} is missing: no episodes to show.`);
  for (const row of run.rows) run.byId.set(row.id, row);
  run.results = readResults(run, problems);
  return run;
}

function readResults(run: LoadedViewRun, problems: string[]): EvalResults | undefined {
  const files = runFiles(run.dir);
  if (existsSync(files.results)) {
    try {
      const results = JSON.parse(readFileSync(files.results, "utf8")) as EvalResults;
      if (results && typeof results === "object" && results.overall && results.scenarios) {
        run.finished = true;
        return results;
      }
      problems.push(`${files.results} is not an eval results file; figures are computed from the episodes.`);
    } catch (error) {
      problems.push(
        `${files.results} cannot be read (${(error as Error).message}); figures are computed from the episodes.`,
      );
    }
  }
  if (run.rows.length === 0) return undefined;
  return buildResults({
    model: run.config?.model ?? run.rows[0]!.model,
    rewardMode: run.config?.reward ?? "paper",
    outcomes: run.rows.map((r) => r.outcome),
    k: run.config?.k ?? Math.max(...run.rows.map((r) => r.sample + 1)),
    scenarios: run.config?.scenarios.filter((id) => run.rows.some((r) => r.scenario === id)),
    heldOut: HELD_OUT,
  });
}

/** Reads `span` of the file at `path` as a string (the one line of an episode). */
function readSpan(path: string, span: LineSpan): string | undefined {
  const fd = openSync(path, "r");
  try {
    const bytes = Buffer.alloc(span.end - span.start);
    const n = readSync(fd, bytes, 0, bytes.length, span.start);
    return n === bytes.length ? bytes.toString("utf8") : undefined;
  } finally {
    closeSync(fd);
  }
}

export function createRunStore(roots: readonly string[]): RunStore {
  const cache = new Map<string, { stamp: string; run: LoadedViewRun }>();
  const store: RunStore = {
    list() {
      const taken = new Set<string>();
      return findRunDirs(roots).map((dir) => {
        const id = runId(dir, taken);
        const f = runFiles(dir);
        const now = [f.config, f.episodes, f.results].map(stamp).join("|");
        const hit = cache.get(dir);
        if (hit && hit.stamp === now && hit.run.id === id) return hit.run;
        const run = loadRun(id, dir);
        cache.set(dir, { stamp: now, run });
        return run;
      });
    },
    get: (id) => store.list().find((r) => r.id === id),
    record(run, row) {
      try {
        const text = readSpan(runFiles(run.dir).episodes, row.span);
        return text === undefined ? undefined : (JSON.parse(text) as EpisodeRecord);
      } catch {
        return undefined;
      }
    },
  };
  return store;
}
