/**
 * The env server's journal (`serve --journal DIR`): one append-only JSON-lines file per open session,
 * `DIR/<session id>.jsonl`, holding the session's opening and every call that changed its episode, in
 * the order they ran. A closed session's file is removed, so the folder holds exactly the sessions a
 * restarted server must rebuild (see session-replay.ts). Each line is written whole before the answer is
 * sent (one write(2), repeated for what a short write left; a write that fails part way is cut back off),
 * so a killed process (kill -9) loses nothing that a client saw answered. A torn last line (a kill or
 * power loss mid-write) is cut off when the file is loaded, before anything is appended to it, so the
 * file is again a sequence of complete lines; a file that is unreadable anywhere else is reported by
 * load() and set aside by the replay, never thrown. Every line after the opening carries its sequence
 * number `n` (1, 2, ... per session, in the order the calls ran, whatever surface made them: /v1, REST on
 * the session's site, MCP), and replay refuses a file whose numbers skip or go back.
 * MCP sessions bound to the episode are journaled too (`mcp` when one is initialised, `mcp-close` when
 * its client closes it or it is reaped), so that a restarted server reopens them under the same
 * `mcp-session-id` and the client carries on without initialising again.
 */
import {
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import type { OperationContext } from "../sandbox/define-operation.ts";
import type { OperationInput, OperationResult } from "../sandbox/execute.ts";
import type { ToolSetName } from "../tools/aliases/tool-sets.ts";
import type { KeptReply } from "./idempotency.ts";
import type { TaskRequest } from "./task-source.ts";

/**
 * The journal's format; 2: state checkpoints are Site.digest() (incremental), not Site.hash(); 3: lines
 * are numbered (`n`) and MCP sessions bound to the episode are journaled.
 */
export const JOURNAL_VERSION = 3;

/** A session's first line: what it was opened on, and the origin its site's links use. */
export interface OpenRecord {
  t: "open";
  v: number;
  request: TaskRequest;
  origin: string;
  /** The idempotency key it was opened with, and its request's fingerprint. */
  key?: string;
  fp?: string;
}

/**
 * A tool call (through /v1 or a bound MCP session): `set` is the tool set it used, `seq` the client's
 * sequence number when it sent one, `obs` a digest of the answer; `hash` is the site's state hash after
 * a call that changed the site (Site.digest()).
 */
export interface StepRecord {
  t: "step";
  name: string;
  arguments: unknown;
  set: ToolSetName;
  seq?: number;
  /** The call's idempotency key and request fingerprint, when it carried one. */
  key?: string;
  fp?: string;
  obs: string;
  hash?: string;
}

/** An operation run by the REST facade on the session's site (`/s/<session id>/...`). */
export interface OperationRecord {
  t: "op";
  operationId: string;
  input: OperationInput | null;
  ctx: OperationContext | null;
  /** The answer, kept only when the request failed before the operation ran (no input to replay). */
  result?: OperationResult;
  /** A keyed write: its idempotency key, request fingerprint and the HTTP answer it got. */
  key?: string;
  fp?: string;
  reply?: KeptReply;
  obs: string;
  hash?: string;
}

/** The agent's final message, as sent with a score request or by a bound MCP session's submit_final_answer. */
export interface FinalRecord {
  t: "final";
  message: string | null;
}

/** The state hash when the session was scored: a checkpoint for replay. */
export interface ScoreRecord {
  t: "score";
  hash: string;
}

/** An MCP session bound to the episode was initialised: its id, tool set and initialize parameters. */
export interface McpOpenRecord {
  t: "mcp";
  id: string;
  set: ToolSetName;
  init: McpInitParams;
  /** Opened by the agent (on the session's token): no score resource (see mcp/create-mcp-server.ts). */
  agent?: true;
}

/** What a client sent with `initialize` (replayed to reopen its MCP session after a restart). */
export interface McpInitParams {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string } & Record<string, unknown>;
}

/** That MCP session was closed by its client or reaped: a restart does not reopen it. */
export interface McpCloseRecord {
  t: "mcp-close";
  id: string;
}

export type JournalRecord =
  | OpenRecord
  | StepRecord
  | OperationRecord
  | FinalRecord
  | ScoreRecord
  | McpOpenRecord
  | McpCloseRecord;

/** A line after the opening, with its sequence number in the session's file (1, 2, ...). */
export type SessionRecord = Exclude<JournalRecord, OpenRecord> & { n: number };

export interface JournaledSession {
  id: string;
  open: OpenRecord;
  records: SessionRecord[];
}

/** A journal file that cannot be read as a session (a line that is not a record, no opening): set it aside. */
export interface UnreadableJournal {
  id: string;
  /** Why, naming the file and line. */
  unreadable: string;
}

export interface Journal {
  readonly dir: string;
  /** Appends one line, whole: when it cannot be written whole it throws and leaves the file as it was. */
  append(sessionId: string, record: OpenRecord | SessionRecord): void;
  /** Forgets a closed session. */
  remove(sessionId: string): void;
  /** Sets a session's file aside (`<id>.jsonl.failed`) when it cannot be rebuilt. */
  setAside(sessionId: string): void;
  /**
   * Every journaled session, each with its records in order, and every file that cannot be read as one.
   * A readable file's torn last line is cut off here (see mendTail), so appending to it starts on a
   * fresh line; an unreadable file is left as it is (for setAside).
   */
  load(): (JournaledSession | UnreadableJournal)[];
  /** Closes the files held open for appending. */
  close(): void;
}

interface OpenFile {
  fd: number;
  /** The file's length after its last complete line: where the next line starts. */
  size: number;
  /** A failed write left bytes after `size` that could not be cut off yet: cut them before writing. */
  torn: boolean;
}

export function createJournal(dir: string): Journal {
  mkdirSync(dir, { recursive: true });
  const file = (id: string) => join(dir, `${id}.jsonl`);
  // Each open session's file stays open for appending: one write(2) per record, no open/close each time.
  const open = new Map<string, OpenFile>();
  const release = (id: string) => {
    const opened = open.get(id);
    open.delete(id);
    if (opened !== undefined) closeSync(opened.fd);
  };
  /** Opens a session's file for appending; one that exists and does not end a line is mended first. */
  const openFile = (id: string): OpenFile => {
    const fd = openSync(file(id), "a+");
    try {
      let size = fstatSync(fd).size;
      const last = Buffer.alloc(1);
      if (size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== NEWLINE)
        size = mendTail(fd, readFileSync(file(id)));
      return { fd, size, torn: false };
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  };
  return {
    dir,
    append(id, record) {
      let opened = open.get(id);
      if (opened === undefined) {
        opened = openFile(id);
        open.set(id, opened);
      }
      if (opened.torn) {
        ftruncateSync(opened.fd, opened.size); // throws again when it still cannot: nothing is glued on
        opened.torn = false;
      }
      const line = Buffer.from(`${JSON.stringify(record)}\n`, "utf8");
      let written = 0;
      try {
        // write(2) may write less than asked (a full disk, a signal): write the rest after it.
        while (written < line.length) {
          const n = writeSync(opened.fd, line, written, line.length - written);
          if (n <= 0) throw new Error(`journal ${file(id)}: write made no progress`);
          written += n;
        }
      } catch (error) {
        // Part of the line may be in the file: cut it off, so the next line starts where this one did
        // (and the record, not written, is not numbered: see Session.log).
        if (written > 0) {
          try {
            ftruncateSync(opened.fd, opened.size);
          } catch {
            opened.torn = true;
          }
        }
        throw error;
      }
      opened.size += line.length;
    },
    remove(id) {
      release(id);
      // unlink, not rm: a folder that may not be changed is reported as such (rm would say ENOTDIR).
      try {
        unlinkSync(file(id));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    },
    setAside(id) {
      release(id);
      renameSync(file(id), `${file(id)}.failed`);
    },
    close() {
      for (const id of [...open.keys()]) release(id);
    },
    load() {
      const entries: (JournaledSession | UnreadableJournal)[] = [];
      for (const name of readdirSync(dir).sort()) {
        if (!name.endsWith(".jsonl")) continue;
        const id = name.slice(0, -".jsonl".length);
        try {
          const bytes = readFileSync(join(dir, name));
          const [open, ...rest] = parseLines(bytes, name);
          if (open === undefined)
            throw new Error(`${name} holds no complete line (its opening was cut short): nothing to rebuild`);
          if (open.t !== "open") throw new Error(`the first line of ${name} is not the session's opening`);
          if (tailOf(bytes).length > 0) {
            const fd = openSync(join(dir, name), "r+");
            try {
              mendTail(fd, bytes);
            } finally {
              closeSync(fd);
            }
          }
          entries.push({ id, open, records: rest as SessionRecord[] });
        } catch (error) {
          entries.push({ id, unreadable: (error as Error).message });
        }
      }
      return entries;
    },
  };
}

const NEWLINE = 0x0a;

/** What follows a journal file's last newline: empty, or a line whose write did not finish. */
function tailOf(bytes: Buffer): Buffer {
  return bytes.subarray(bytes.lastIndexOf(NEWLINE) + 1);
}

/**
 * The records of a journal file, in order. Its last line may be torn (its write cut short by a kill,
 * a full disk or power loss): unless it is a whole record that only lacks its newline, it is dropped. Any
 * other line that is not a record throws, naming it.
 */
function parseLines(bytes: Buffer, name: string): JournalRecord[] {
  const tail = tailOf(bytes);
  const lines = bytes
    .subarray(0, bytes.length - tail.length)
    .toString("utf8")
    .split("\n");
  lines.pop(); // after the last newline: the tail
  const records = lines.map((line, i) => {
    const record = asRecord(line);
    if (record === undefined)
      throw new Error(`line ${i + 1} of ${name} is not a journal record: ${excerpt(line)}`);
    return record;
  });
  const whole = asRecord(tail.toString("utf8"));
  if (whole !== undefined) records.push(whole);
  return records;
}

/**
 * Makes an open journal file (`bytes`: its content) a sequence of complete lines again, and returns its
 * new length: a last line that is a whole record lacking only its newline gets it (a prefix of a JSON
 * object is never itself one, so nothing written half is kept); anything else after the last newline is
 * cut off.
 */
function mendTail(fd: number, bytes: Buffer): number {
  const tail = tailOf(bytes);
  if (tail.length === 0) return bytes.length;
  if (asRecord(tail.toString("utf8")) !== undefined) {
    writeSync(fd, "\n", bytes.length);
    return bytes.length + 1;
  }
  ftruncateSync(fd, bytes.length - tail.length);
  return bytes.length - tail.length;
}

/** A line parsed as a journal record (a JSON object with a type `t`), or undefined. */
function asRecord(line: string): JournalRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const t = (value as { t?: unknown } | null)?.t;
  return typeof value === "object" && !Array.isArray(value) && typeof t === "string"
    ? (value as JournalRecord)
    : undefined;
}

function excerpt(line: string): string {
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}
