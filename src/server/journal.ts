/**
 * The env server's journal (`serve --journal DIR`): one append-only JSON-lines file per open session,
 * `DIR/<session id>.jsonl`, holding the session's opening and every call that changed its episode, in
 * the order they ran. A closed session's file is removed, so the folder holds exactly the sessions a
 * restarted server must rebuild (see session-replay.ts). Lines are written with one write(2) each before
 * the answer is sent, so a killed process (kill -9) loses nothing that a client saw answered; a torn
 * last line (power loss mid-write) is ignored on load. Every line after the opening carries its sequence
 * number `n` (1, 2, ... per session, in the order the calls ran, whatever surface made them: /v1, REST on
 * the session's site, MCP), and replay refuses a file whose numbers skip or go back.
 * MCP sessions bound to the episode are journaled too (`mcp` when one is initialised, `mcp-close` when
 * its client closes it or it is reaped), so that a restarted server reopens them under the same
 * `mcp-session-id` and the client carries on without initialising again.
 */
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
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

export interface Journal {
  readonly dir: string;
  append(sessionId: string, record: OpenRecord | SessionRecord): void;
  /** Forgets a closed session. */
  remove(sessionId: string): void;
  /** Sets a session's file aside (`<id>.jsonl.failed`) when it cannot be rebuilt. */
  setAside(sessionId: string): void;
  /** Every journaled session, each with its records in order. */
  load(): JournaledSession[];
  /** Closes the files held open for appending. */
  close(): void;
}

export function createJournal(dir: string): Journal {
  mkdirSync(dir, { recursive: true });
  const file = (id: string) => join(dir, `${id}.jsonl`);
  // Each open session's file stays open for appending: one write(2) per record, no open/close each time.
  const open = new Map<string, number>();
  const release = (id: string) => {
    const fd = open.get(id);
    if (fd !== undefined) closeSync(fd);
    open.delete(id);
  };
  return {
    dir,
    append(id, record) {
      let fd = open.get(id);
      if (fd === undefined) {
        fd = openSync(file(id), "a");
        open.set(id, fd);
      }
      writeSync(fd, `${JSON.stringify(record)}\n`);
    },
    remove(id) {
      release(id);
      rmSync(file(id), { force: true });
    },
    setAside(id) {
      release(id);
      renameSync(file(id), `${file(id)}.failed`);
    },
    close() {
      for (const id of [...open.keys()]) release(id);
    },
    load() {
      const sessions: JournaledSession[] = [];
      for (const name of readdirSync(dir).sort()) {
        if (!name.endsWith(".jsonl")) continue;
        const id = name.slice(0, -".jsonl".length);
        const records = parseLines(readFileSync(join(dir, name), "utf8"));
        const [open, ...rest] = records;
        if (open?.t !== "open") continue;
        sessions.push({ id, open, records: rest as JournaledSession["records"] });
      }
      return sessions;
    },
  };
}

/** The complete lines of a journal file (a torn last line is dropped). */
function parseLines(text: string): JournalRecord[] {
  const lines = text.split("\n");
  lines.pop(); // after the last newline: empty, or a line whose write did not finish
  return lines.map((line) => JSON.parse(line) as JournalRecord);
}
