/**
 * Holds on a journal folder, so that two processes never write the same session files (a session then
 * holds two records with one number and is set aside at the next start):
 * - a fleet's (`<journal>/fleet.lock`, the router's pid and its workers'): one live fleet per folder, so a
 *   second one, or the orphaned workers of a killed router, never run on the journals a running fleet uses;
 *   a lock whose router is gone is taken over once its workers exit;
 * - a server's (`<journal>/server.lock`, its pid: `serve --journal`, a fleet's workers each on their own
 *   folder): one live server per folder; a lock whose server is gone (kill -9) is taken over.
 * Neither is taken while the other is held by a running process.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../errors.ts";

const LOCK_FILE = "fleet.lock";
const SERVER_LOCK_FILE = "server.lock";

interface LockRecord {
  router: number;
  /** When the router started (processStartTime), so that a reused pid is not taken for it. */
  started?: string;
  workers: number[];
}

export interface JournalLock {
  /** Writes the workers' pids now running into the lock. */
  record(workers: readonly number[]): void;
  /** Removes the lock (when it is still this process's). */
  release(): void;
}

/**
 * Takes `<journal>/fleet.lock` for this process: refused (UsageError) while the router named in it runs;
 * when that router is gone, its workers are given `waitMs` to exit (they follow their router), and the lock
 * is taken over, or refused naming the workers still running.
 */
export async function lockJournal(journal: string, waitMs: number): Promise<JournalLock> {
  mkdirSync(journal, { recursive: true });
  const file = join(journal, LOCK_FILE);
  const write = (record: LockRecord, publish: (temp: string) => void) => writeLock(file, record, publish);
  const server = serverHolding(journal);
  if (server !== null)
    throw new UsageError(
      `the journal ${journal} is in use by a running server (pid ${server}); stop it or choose another --journal`,
    );
  for (let attempt = 0; ; attempt++) {
    try {
      // Created with its content at once (link fails when the lock exists), so no reader sees it empty.
      write({ router: process.pid, started: OWN_START, workers: [] }, (temp) => linkSync(temp, file));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 5) throw error;
    }
    const held = readLock(file);
    const remove = `remove ${file} if no such process runs`;
    if (held && holds(held.router, held.started))
      throw new UsageError(
        `the journal ${journal} is in use by a running fleet (router pid ${held.router}); stop it or choose another --journal (${remove})`,
      );
    const left = await exited(held?.workers ?? [], waitMs);
    if (left.length > 0)
      throw new UsageError(
        `the journal ${journal} is still in use by worker process${left.length > 1 ? "es" : ""} ${left.join(", ")} of a fleet whose router (pid ${held!.router}) is gone; stop ${left.length > 1 ? "them" : "it"} or choose another --journal (${remove})`,
      );
    retire(file);
  }
  const ours = () => readLock(file)?.router === process.pid;
  return {
    record(workers) {
      if (ours())
        write(
          { router: process.pid, started: OWN_START, workers: workers.filter(Number.isInteger) },
          (temp) => renameSync(temp, file),
        );
    },
    release() {
      if (ours()) rmSync(file, { force: true });
    },
  };
}

/**
 * Takes `<journal>/server.lock` for this process (a single server's journal), synchronously: refused
 * (UsageError) while another running process holds it, or while a running fleet holds the folder. A lock
 * left by a process that is gone, or by this pid in an earlier life, is taken over.
 */
export function lockServerJournal(journal: string): { release(): void } {
  mkdirSync(journal, { recursive: true });
  const fleet = readLock(join(journal, LOCK_FILE));
  if (fleet && holds(fleet.router, fleet.started))
    throw new UsageError(
      `the journal ${journal} is in use by a running fleet (router pid ${fleet.router}); stop it or choose another --journal`,
    );
  const file = join(journal, SERVER_LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      // Created with its content at once (link fails when the lock exists), so no reader sees it empty.
      writeLock(file, { server: process.pid, started: OWN_START }, (temp) => linkSync(temp, file));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 5) throw error;
    }
    const held = serverHolding(journal);
    if (held !== null)
      throw new UsageError(
        `the journal ${journal} is in use by a running server (pid ${held}); stop it or choose another --journal (remove ${file} if no such process runs)`,
      );
    retire(file);
  }
  return {
    release() {
      if (serverLock(file)?.pid === process.pid) rmSync(file, { force: true });
    },
  };
}

/** Writes a lock's record beside `file`, then `publish`es it there (link: only if none; rename: replace). */
function writeLock(file: string, record: object, publish: (temp: string) => void): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(record));
  try {
    publish(temp);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** The pid of another running process holding `<journal>/server.lock`, or null. */
function serverHolding(journal: string): number | null {
  const held = serverLock(join(journal, SERVER_LOCK_FILE));
  return held !== null && holds(held.pid, held.started) ? held.pid : null;
}

function serverLock(file: string): { pid: number; started?: string } | null {
  try {
    const { server, started } = JSON.parse(readFileSync(file, "utf8")) as {
      server?: unknown;
      started?: unknown;
    };
    if (!Number.isInteger(server)) return null;
    return { pid: server as number, ...(typeof started === "string" ? { started } : {}) };
  } catch {
    return null;
  }
}

/**
 * Whether the process a lock names still holds it: another process than this one (a restarted process
 * may get its dead predecessor's pid, pid 1 in a container), running, and started when the lock says (a
 * pid reused by another process since is not the holder).
 */
function holds(pid: number, started: string | undefined): boolean {
  if (pid === process.pid || !isRunning(pid)) return false;
  const now = started === undefined ? null : processStartTime(pid);
  return now === null || now === started;
}

/**
 * Takes a stale lock out of the way by renaming it first: of two processes taking it over at once, only
 * one renames it, and neither removes the other's new lock.
 */
function retire(file: string): void {
  const stale = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, stale);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return;
  }
  rmSync(stale, { force: true });
}

/** When process `pid` started (clock ticks since boot, /proc's field 22), or null where that is not known. */
function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

const OWN_START = processStartTime(process.pid) ?? undefined;

function readLock(file: string): LockRecord | null {
  try {
    const record = JSON.parse(readFileSync(file, "utf8")) as Partial<LockRecord>;
    if (!Number.isInteger(record.router) || !Array.isArray(record.workers)) return null;
    return {
      router: record.router!,
      ...(typeof record.started === "string" ? { started: record.started } : {}),
      workers: record.workers.filter(Number.isInteger),
    };
  } catch {
    return null;
  }
}

/** Waits up to `waitMs` for the processes to exit; resolves with those still running. */
async function exited(pids: readonly number[], waitMs: number): Promise<number[]> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const running = pids.filter(isRunning);
    if (running.length === 0 || Date.now() >= deadline) return running;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether process `pid` is running; one that has exited but is not yet reaped (a zombie) is not. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat[stat.lastIndexOf(")") + 2] !== "Z";
  } catch {
    return true; // no /proc (not Linux): the signal check is all there is
  }
}
