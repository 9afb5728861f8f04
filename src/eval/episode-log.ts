/**
 * The episode log: `<dir>/episodes.jsonl`, one finished episode per line, appended the moment it ends
 * (one write per line), so a run killed at any point loses at most its in-flight episodes. Reading
 * tolerates a truncated last line (the write a kill interrupted) and repairs the file before appending.
 * Lines are episode records (episode-record.ts). An episode that ended in a provider error is not done:
 * a resumed run runs it again and appends the new line, which replaces the earlier one when read.
 */
import { closeSync, existsSync, ftruncateSync, openSync, readSync, writeSync } from "node:fs";
import type { EpisodeTrace } from "../agent/types.ts";
import { AtlasGymError } from "../errors.ts";
import { type EpisodeRecord, isProviderError, toEpisodeRecord } from "./episode-record.ts";

/** Identifies an episode within a run: the task and the sample number. */
export const episodeKey = (taskId: string, sample: number) => `${taskId}#${sample}`;

/** Thrown when a line other than the last one of an episode log is not a JSON episode. */
export class EpisodeLogError extends AtlasGymError {
  override name = "EpisodeLogError";
}

export interface EpisodeLogContents<T> {
  /** Mapped episodes in file order; a later line for the same key replaces the earlier one in place. */
  episodes: T[];
  keys: Set<string>;
  /** Keys whose (latest) episode ended in a provider error. */
  providerErrors: Set<string>;
  /** Byte length of the complete, parseable lines (what a repair keeps). */
  validBytes: number;
  /** The file's last line was cut short (no newline and not JSON) and was ignored. */
  truncatedTail: boolean;
  /** The last line parsed but had no newline after it. */
  unterminatedTail: boolean;
}

/** Where one episode's line lies in the file: its first byte and the byte just past its text. */
export interface LineSpan {
  start: number;
  end: number;
}

/**
 * Reads an episode log, mapping each episode through `map` (so large runs can keep only what they
 * need; `span` lets a reader fetch the full line again later). A missing file reads as empty.
 */
export function readEpisodeLog<T = EpisodeRecord>(
  path: string,
  map: (record: EpisodeRecord, span: LineSpan) => T = (record) => record as T,
): EpisodeLogContents<T> {
  const positions = new Map<string, number>();
  const contents: EpisodeLogContents<T> = {
    episodes: [],
    keys: new Set(),
    providerErrors: new Set(),
    validBytes: 0,
    truncatedTail: false,
    unterminatedTail: false,
  };
  if (!existsSync(path)) return contents;
  let number = 0;
  let held: Line | undefined;
  const take = (line: Line, last: boolean): boolean => {
    number++;
    const text = line.bytes.toString("utf8");
    const trace = parseLine(text);
    if (trace === undefined) {
      if (!line.terminated) {
        contents.truncatedTail = true;
        return false;
      }
      if (text.trim() === "" && last) return false;
      const legacy = text.includes('"taskId":')
        ? " (written by an older atlas-gym; episodes are now snake_case records)"
        : "";
      throw new EpisodeLogError(
        `${path}, line ${number}: not a JSON episode${legacy || (last ? "" : " (only a truncated last line is tolerated)")}`,
      );
    }
    const key = episodeKey(trace.task_id, trace.sample);
    const start = line.end - line.bytes.length - (line.terminated ? 1 : 0);
    const span = { start, end: start + line.bytes.length };
    const at = positions.get(key);
    if (at === undefined) {
      positions.set(key, contents.episodes.length);
      contents.keys.add(key);
      contents.episodes.push(map(trace, span));
    } else contents.episodes[at] = map(trace, span);
    if (isProviderError(trace)) contents.providerErrors.add(key);
    else contents.providerErrors.delete(key);
    contents.validBytes = line.end;
    contents.unterminatedTail = !line.terminated;
    return true;
  };
  for (const line of readLines(path)) {
    if (held && !take(held, false)) return contents;
    held = line;
  }
  if (held) take(held, true);
  return contents;
}

interface Line {
  bytes: Buffer;
  /** Byte offset just past the line (and its newline). */
  end: number;
  terminated: boolean;
}

/** The file's lines, read in 1 MiB chunks so memory stays at the longest line, not the file. */
function* readLines(path: string): Generator<Line> {
  const fd = openSync(path, "r");
  const chunk = Buffer.alloc(1 << 20);
  let pending: Buffer[] = [];
  let offset = 0;
  try {
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      let start = 0;
      for (let nl = chunk.indexOf(0x0a, start); nl !== -1 && nl < n; nl = chunk.indexOf(0x0a, start)) {
        const bytes = Buffer.concat([...pending, chunk.subarray(start, nl)]);
        pending = [];
        offset += bytes.length + 1;
        yield { bytes, end: offset, terminated: true };
        start = nl + 1;
      }
      if (start < n) pending.push(Buffer.from(chunk.subarray(start, n)));
    }
  } finally {
    closeSync(fd);
  }
  if (pending.length > 0) {
    const bytes = Buffer.concat(pending);
    yield { bytes, end: offset + bytes.length, terminated: false };
  }
}

function parseLine(text: string): EpisodeRecord | undefined {
  if (text.trim() === "") return undefined;
  try {
    const value = JSON.parse(text) as EpisodeRecord;
    const ok =
      typeof value === "object" &&
      value !== null &&
      typeof value.task_id === "string" &&
      Number.isInteger(value.sample) &&
      typeof value.score?.reward === "number";
    return ok ? value : undefined;
  } catch {
    return undefined;
  }
}

export interface EpisodeLog {
  readonly path: string;
  /** Keys of the episodes done: in the file without a provider error, or appended since it was opened. */
  readonly keys: ReadonlySet<string>;
  /** Appends one episode (as its record) as one line, in a single write. */
  append(trace: EpisodeTrace): void;
  close(): void;
}

/**
 * Opens an episode log for appending. The file's existing episodes count as done, except those that
 * ended in a provider error; a truncated last line is cut off and a missing final newline is added, so
 * the next append starts a line of its own.
 */
export function openEpisodeLog(path: string): EpisodeLog {
  const existing = readEpisodeLog(path, () => null);
  const keys = new Set([...existing.keys].filter((key) => !existing.providerErrors.has(key)));
  const fd = openSync(path, "a+");
  if (existing.truncatedTail) ftruncateSync(fd, existing.validBytes);
  if (existing.unterminatedTail) writeAll(fd, Buffer.from("\n"));
  let open = true;
  return {
    path,
    keys,
    append(trace) {
      if (!open) throw new Error(`Episode log ${path} is closed`);
      writeAll(fd, Buffer.from(`${JSON.stringify(toEpisodeRecord(trace))}\n`));
      keys.add(episodeKey(trace.taskId, trace.sample));
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

function writeAll(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
}
