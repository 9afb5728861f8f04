/**
 * The session store: every open episode of the env server, by session id. Each session holds one
 * Episode and a call lock (a promise chain), so calls on one session never interleave while different
 * sessions run freely. Idle sessions are reaped after a TTL (trainers such as TRL never say goodbye),
 * a capacity limit protects the process, and each session's site is bound into the REST facade's
 * SiteRegistry under its id. The MCP server imports this store to bind its sessions to the same episodes.
 * With a journal, each session's opening and calls are appended to it and a closed session's are removed.
 */
import { randomUUID } from "node:crypto";
import type { Episode } from "../env/episode.ts";
import type { SiteRegistry } from "../http/site-registry.ts";
import type { ToolCallResult } from "../tools/tool-call-result.ts";
import { JournalWriteError, SessionCapacityError, SessionNotFoundError } from "./errors.ts";
import { KeptAnswers, type KeptReply, type KeyedRequest } from "./idempotency.ts";
import {
  JOURNAL_VERSION,
  type Journal,
  type JournalRecord,
  type McpOpenRecord,
  type OpenRecord,
} from "./journal.ts";
import type { SessionOpening } from "./open-session.ts";

/** An answer kept under an idempotency key: a REST write's HTTP answer, or a tool call's result. */
export type KeptAnswer = { rest: KeptReply } | { tool: ToolCallResult };

/** Session ids start with this, which is how the REST facade tells a session's site from an ad-hoc one. */
export const SESSION_PREFIX = "ses-";

export interface Session {
  readonly id: string;
  readonly episode: Episode;
  /** Store clock (ms) when it was opened. */
  readonly createdAt: number;
  /** Store clock (ms) when a call last started or finished on it. */
  readonly lastUsed: number;
  /** Calls running or queued on it; a session with pending calls is never reaped. */
  readonly pending: number;
  /** Whether it has been deleted or reaped (calls still queued on it then fail with SessionNotFoundError). */
  readonly closed: boolean;
  /** The agent's final message, once a client has sent one with a score request. */
  finalMessage: string | null;
  /** The client's sequence number of the last tool call applied with one (0 before any). */
  lastSeq: number;
  /** The answer to that call, given again to a client that retries it. */
  lastResult: ToolCallResult | null;
  /** That call's Idempotency-Key (null: it had none): a call with another key is not its retry. */
  lastKey: string | null;
  /** That call as sent (`sentCall`): a call under its number without a key must match it to be its retry. */
  lastCall: string | null;
  /** Answers kept by idempotency key (REST writes on its site and tool calls; see idempotency.ts). */
  readonly kept: KeptAnswers<KeptAnswer>;
  /** The keyed REST request running now under the call lock (set by the session-site guard), or null. */
  restKey: KeyedRequest | null;
  /** The idempotency key the session was opened with, if any. */
  openKey: string | null;
  /** Whether the session's calls are journaled. */
  readonly journaled: boolean;
  /**
   * Appends a record to the session's journal with the next sequence number (does nothing when it has
   * none).
   */
  log(record: Exclude<JournalRecord, OpenRecord>): void;
  /** The sequence number of the last journaled record (0 before any; replay sets it to the file's last). */
  journalSeq: number;
  /**
   * Set when the running call's journal line could not be written (the call was undone): a surface that
   * turns errors into answers of its own (the REST facade) answers this instead. Cleared by each call.
   */
  journalError: JournalWriteError | null;
  /** The MCP sessions bound to this one and still open, by mcp-session-id (journaled, reopened on restart). */
  readonly mcp: Map<string, McpOpenRecord>;
  /**
   * Runs `fn` after every earlier call on this session has settled (calls on one session never
   * interleave) and marks the session used. Rejects with SessionNotFoundError if the session was closed
   * while the call waited.
   */
  run<T>(fn: (episode: Episode) => T | Promise<T>): Promise<T>;
}

export type CloseReason = "deleted" | "reaped";

export interface SessionStoreOptions {
  /** Idle time (ms) after which `reap()` closes a session. Default 10 minutes. */
  ttlMs?: number;
  /** Most sessions open at once; opening one more throws SessionCapacityError (HTTP 429). Default 4096. */
  maxSessions?: number;
  /** Milliseconds clock; inject one in tests. Default Date.now. */
  clock?: () => number;
  /** Session id factory. Default `ses-<uuid>`; ids must start with SESSION_PREFIX and be URL-safe. */
  newId?: () => string;
  /** Where session sites are bound for the REST facade (`/s/<session id>/...`). */
  sites?: Pick<SiteRegistry, "set" | "delete">;
  /** Where sessions opened with an `opening` are journaled (see journal.ts). */
  journal?: Journal;
}

export interface CreateOptions {
  /** What the session is opened on (its journal's first record); without it the session is not journaled. */
  opening?: Omit<OpenRecord, "t" | "v">;
  /** Reopen a journaled session under its old id (replay): its journal already holds its records. */
  restoreId?: string;
}

export interface SessionStore {
  readonly ttlMs: number;
  readonly maxSessions: number;
  readonly size: number;
  /** Openings kept by idempotency key (a retried POST /v1/sessions gets the same session). */
  readonly openings: KeptAnswers<SessionOpening>;
  /** The store's clock (ms). */
  now(): number;
  /**
   * Opens a session: reaps idle sessions first if the store is full, throws SessionCapacityError if it is
   * still full, otherwise builds the episode with `open(id)` and binds its site.
   */
  create(open: (id: string) => Episode, options?: CreateOptions): Session;
  /** The open session with this id; throws SessionNotFoundError. */
  get(id: string): Session;
  /** The open session with this id, or undefined. */
  find(id: string): Session | undefined;
  /** Marks a session used now; false if there is no such session. */
  touch(id: string): boolean;
  /** Closes a session; false if there is no such session; JournalWriteError (nothing closed) if its journal cannot be removed. */
  delete(id: string): boolean;
  /**
   * Closes every session idle longer than the TTL with no call pending; returns the ids closed (one whose
   * journal cannot be removed now stays, for the next pass).
   */
  reap(): string[];
  /** Seconds until the longest-idle session becomes reapable (at least 1): the Retry-After of a 429. */
  retryAfterSeconds(): number;
  ids(): string[];
  /** Calls `listener` whenever a session closes; returns a function that removes the listener. */
  onClose(listener: (session: Session, reason: CloseReason) => void): () => void;
}

const DEFAULT_TTL_MS = 10 * 60_000;
const DEFAULT_MAX_SESSIONS = 4096;

interface SessionState extends Session {
  lastUsed: number;
  pending: number;
  closed: boolean;
}

export function createSessionStore(options: SessionStoreOptions = {}): SessionStore {
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  if (!(ttlMs > 0)) throw new RangeError(`Session TTL must be positive, got ${ttlMs}`);
  if (!Number.isInteger(maxSessions) || maxSessions < 1)
    throw new RangeError(`maxSessions must be a positive integer, got ${maxSessions}`);
  const clock = options.clock ?? Date.now;
  const newId = options.newId ?? (() => `${SESSION_PREFIX}${randomUUID()}`);
  const sessions = new Map<string, SessionState>();
  const listeners = new Set<(session: Session, reason: CloseReason) => void>();

  const openings = new KeptAnswers<SessionOpening>();

  /**
   * Closes a session: its journal file goes first, so a close that cannot be journaled changes nothing
   * (JournalWriteError, 503) and the session is still there to close again, here and after a restart.
   */
  function close(session: SessionState, reason: CloseReason): void {
    if (session.journaled && options.journal) {
      try {
        options.journal.remove(session.id);
      } catch (error) {
        throw new JournalWriteError(session.id, error);
      }
    }
    session.closed = true;
    if (session.openKey !== null) openings.forget(session.openKey);
    sessions.delete(session.id);
    options.sites?.delete(session.id);
    for (const listener of listeners) listener(session, reason);
  }

  function open(id: string, episode: Episode, journaled: boolean): SessionState {
    let tail: Promise<unknown> = Promise.resolve();
    /** Takes the episode back to before the running call (see `marked`). */
    let undo: (() => void) | null = null;
    const now = clock();
    const session: SessionState = {
      id,
      episode,
      createdAt: now,
      lastUsed: now,
      pending: 0,
      closed: false,
      finalMessage: null,
      lastSeq: 0,
      lastResult: null,
      lastKey: null,
      lastCall: null,
      kept: new KeptAnswers<KeptAnswer>(),
      restKey: null,
      openKey: null,
      journaled,
      journalSeq: 0,
      journalError: null,
      mcp: new Map(),
      log(record) {
        if (!journaled) return;
        // Numbered once written: a line that could not be written must not leave a gap in the numbers.
        try {
          options.journal!.append(id, { ...record, n: session.journalSeq + 1 });
        } catch (error) {
          // Memory must not hold what the journal lacks: the running call is undone, and says so.
          undo?.();
          undo = null;
          session.journalError = new JournalWriteError(id, error);
          throw session.journalError;
        }
        session.journalSeq++;
        // What is written stays: a later line of the same call that fails (a score after a final
        // answer) leaves memory as the journal now has it.
        undo = null;
      },
      run<T>(fn: (episode: Episode) => T | Promise<T>): Promise<T> {
        // Nothing running or queued (a call holds `pending` until it settles): run it now. A synchronous
        // call (a tool call, a score) then needs no promise chain; an asynchronous one holds the lock.
        if (session.pending === 0) return runNow(fn);
        session.lastUsed = clock();
        return hold(
          tail.then(() => {
            if (session.closed) throw new SessionNotFoundError(id);
            return marked(fn);
          }),
        );
      },
    };
    function runNow<T>(fn: (episode: Episode) => T | Promise<T>): Promise<T> {
      session.lastUsed = clock();
      if (session.closed) return Promise.reject(new SessionNotFoundError(id));
      let value: T | Promise<T>;
      try {
        value = marked(fn);
      } catch (error) {
        return Promise.reject(error);
      } finally {
        session.lastUsed = clock();
      }
      return value instanceof Promise ? hold(value) : Promise.resolve(value);
    }
    /**
     * Runs `fn` on the episode with a checkpoint to undo it by when its journal line cannot be written
     * (journaled sessions only; a fork of the site, microseconds). The lock keeps one at a time.
     */
    function marked<T>(fn: (episode: Episode) => T | Promise<T>): T | Promise<T> {
      undo = journaled ? episode.checkpoint() : null;
      session.journalError = null;
      return fn(episode);
    }
    /** Holds the lock (calls after it wait, the reaper passes the session by) until `call` settles. */
    function hold<T>(call: Promise<T>): Promise<T> {
      session.pending++;
      tail = call.then(
        () => undefined,
        () => undefined,
      );
      return call.finally(() => {
        session.pending--;
        session.lastUsed = clock();
      });
    }
    return session;
  }

  const store: SessionStore = {
    ttlMs,
    maxSessions,
    openings,
    get size() {
      return sessions.size;
    },
    now: () => clock(),
    create(build, { opening, restoreId } = {}) {
      if (sessions.size >= maxSessions) store.reap();
      if (sessions.size >= maxSessions)
        throw new SessionCapacityError(maxSessions, store.retryAfterSeconds());
      const id = restoreId ?? newId();
      if (!id.startsWith(SESSION_PREFIX) || !/^[\w.-]+$/.test(id) || sessions.has(id))
        throw new Error(`Session id factory returned an unusable or duplicate id '${id}'`);
      const journaled = options.journal !== undefined && (opening !== undefined || restoreId !== undefined);
      const session = open(id, build(id), journaled);
      if (journaled && restoreId === undefined) {
        try {
          options.journal!.append(id, { t: "open", v: JOURNAL_VERSION, ...opening! });
        } catch (error) {
          // Not opened: no file may be left to rebuild a session nobody was given.
          try {
            options.journal!.remove(id);
          } catch {}
          throw new JournalWriteError(id, error);
        }
      }
      // The journal's checkpoints are Site.digest(): asked for before any write, its table sums are
      // computed on the tables the site still shares with its task's pristine site (once per task), and
      // each write then updates them; asked for first after a write, every written table is summed anew.
      if (journaled) session.episode.site.digest();
      sessions.set(id, session);
      options.sites?.set(id, session.episode.site);
      return session;
    },
    get(id) {
      const session = sessions.get(id);
      if (!session) throw new SessionNotFoundError(id);
      return session;
    },
    find: (id) => sessions.get(id),
    touch(id) {
      const session = sessions.get(id);
      if (session) session.lastUsed = clock();
      return session !== undefined;
    },
    delete(id) {
      const session = sessions.get(id);
      if (session) close(session, "deleted");
      return session !== undefined;
    },
    reap() {
      const now = clock();
      const idle = [...sessions.values()].filter((s) => s.pending === 0 && now - s.lastUsed >= ttlMs);
      const closed: string[] = [];
      for (const session of idle) {
        try {
          close(session, "reaped");
          closed.push(session.id);
        } catch (error) {
          // Its journal cannot be changed now: it stays open, and the next pass tries again.
          if (!(error instanceof JournalWriteError)) throw error;
        }
      }
      return closed;
    },
    retryAfterSeconds() {
      const now = clock();
      let soonest = Number.POSITIVE_INFINITY;
      for (const s of sessions.values()) soonest = Math.min(soonest, s.lastUsed + ttlMs - now);
      return Number.isFinite(soonest) ? Math.max(1, Math.ceil(soonest / 1000)) : 1;
    },
    ids: () => [...sessions.keys()],
    onClose(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return store;
}
