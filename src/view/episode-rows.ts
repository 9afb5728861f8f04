/**
 * One row of the view's episode list: what the list shows and filters on (family, level, verdict, how
 * the episode ended, violation codes, provider error, the prompt for search), the metrics' outcome, and
 * where its line lies in episodes.jsonl. Filtering and paging work on rows only, never on records.
 */
import type { LineSpan } from "../eval/episode-log.ts";
import { type EpisodeRecord, endingOf, TRUNCATED_ENDINGS } from "../eval/episode-record.ts";
import { type EpisodeOutcome, outcomeOf } from "../eval/metrics.ts";

export interface EpisodeRow {
  /** URL-safe id: the task id with `~` for `/`, then `~<sample>` (e.g. jira-assign-v1~eval~3~0). */
  id: string;
  taskId: string;
  scenario: string;
  level: number;
  sample: number;
  model: string;
  outcome: EpisodeOutcome;
  /** How it ended (episode-record.ts `endingOf`): terminated, budget, max_turns or provider_error. */
  ending: string;
  prompt: string;
  span: LineSpan;
}

export const episodeId = (taskId: string, sample: number) => `${taskId.replaceAll("/", "~")}~${sample}`;

export function episodeRow(record: EpisodeRecord, span: LineSpan): EpisodeRow {
  const user = record.messages.find((m) => m.role === "user");
  return {
    id: episodeId(record.task_id, record.sample),
    taskId: record.task_id,
    scenario: record.scenario,
    level: record.level,
    sample: record.sample,
    model: record.model,
    outcome: outcomeOf(record),
    ending: endingOf(record),
    prompt: user?.content ?? "",
    span,
  };
}

/** The list's filters, as the query string carries them (empty: no filter). */
export interface RowFilter {
  family?: string;
  level?: string;
  verdict?: "passed" | "failed" | "errored";
  ending?: string;
  violation?: string;
  error?: string;
  q?: string;
}

export const FILTER_KEYS = ["family", "level", "verdict", "ending", "violation", "error", "q"] as const;

/** The filter a query string asks for (unknown keys and empty values are ignored). */
export function parseFilter(query: Record<string, string | undefined>): RowFilter {
  const filter: RowFilter = {};
  for (const key of FILTER_KEYS) {
    const value = query[key]?.trim();
    if (value) (filter as Record<string, string>)[key] = value;
  }
  return filter;
}

export function matches(row: EpisodeRow, f: RowFilter): boolean {
  const o = row.outcome;
  if (f.family && row.scenario !== f.family) return false;
  if (f.level && String(row.level) !== f.level) return false;
  if (f.verdict === "errored" && o.error === null) return false;
  if (f.verdict === "passed" && !(o.passed && o.error === null)) return false;
  if (f.verdict === "failed" && (o.passed || o.error !== null)) return false;
  if (f.ending && row.ending !== f.ending && !(f.ending === "truncated" && isTruncated(row))) return false;
  if (f.violation && !o.violations.includes(f.violation as never)) return false;
  if (f.error && o.error !== f.error) return false;
  if (f.q && !row.prompt.toLowerCase().includes(f.q.toLowerCase())) return false;
  return true;
}

/** Truncated by its call budget or turn limit (the `truncated` ending filter takes both). */
const isTruncated = (row: EpisodeRow) => (TRUNCATED_ENDINGS as readonly string[]).includes(row.ending);

/** The values each filter can take in these rows (for the filter form's choices). */
export function filterChoices(rows: readonly EpisodeRow[]) {
  const sorted = (values: Iterable<string>) => [...new Set(values)].sort();
  return {
    family: sorted(rows.map((r) => r.scenario)),
    level: sorted(rows.map((r) => String(r.level))),
    ending: sorted(rows.flatMap((r) => (isTruncated(r) ? [r.ending, "truncated"] : [r.ending]))),
    violation: sorted(rows.flatMap((r) => r.outcome.violations)),
    error: sorted(rows.flatMap((r) => (r.outcome.error ? [r.outcome.error] : []))),
  };
}

export const PAGE_SIZE = 50;

/** One page (1-based) of the rows that match, and how many matched. */
export function pageOf(rows: readonly EpisodeRow[], filter: RowFilter, page: number, size = PAGE_SIZE) {
  const matched = rows.filter((r) => matches(r, filter));
  const pages = Math.max(1, Math.ceil(matched.length / size));
  const current = Math.min(Math.max(1, Number.isInteger(page) ? page : 1), pages);
  return {
    rows: matched.slice((current - 1) * size, current * size),
    total: matched.length,
    page: current,
    pages,
  };
}
