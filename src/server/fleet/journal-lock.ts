/**
 * The fleet's hold on its journal folder (`<journal>/fleet.lock`, the router's pid and its workers'):
 * one live fleet per folder, so a second one, or the orphaned workers of a killed router, never run on
 * the journals a running fleet uses; a lock whose router is gone is taken over once its workers exit.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../../errors.ts";

const LOCK_FILE = "fleet.lock";

interface LockRecord {
  router: number;
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
  const write = (record: LockRecord, publish: (temp: string) => void) => {
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(record));
    try {
      publish(temp);
    } finally {
      rmSync(temp, { force: true });
    }
  };
  for (let attempt = 0; ; attempt++) {
    try {
      // Created with its content at once (link fails when the lock exists), so no reader sees it empty.
      write({ router: process.pid, workers: [] }, (temp) => linkSync(temp, file));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 5) throw error;
    }
    const held = readLock(file);
    const remove = `remove ${file} if no such process runs`;
    if (held && isRunning(held.router))
      throw new UsageError(
        `the journal ${journal} is in use by a running fleet (router pid ${held.router}); stop it or choose another --journal (${remove})`,
      );
    const left = await exited(held?.workers ?? [], waitMs);
    if (left.length > 0)
      throw new UsageError(
        `the journal ${journal} is still in use by worker process${left.length > 1 ? "es" : ""} ${left.join(", ")} of a fleet whose router (pid ${held!.router}) is gone; stop ${left.length > 1 ? "them" : "it"} or choose another --journal (${remove})`,
      );
    rmSync(file, { force: true });
  }
  const ours = () => readLock(file)?.router === process.pid;
  return {
    record(workers) {
      if (ours())
        write({ router: process.pid, workers: workers.filter(Number.isInteger) }, (temp) =>
          renameSync(temp, file),
        );
    },
    release() {
      if (ours()) rmSync(file, { force: true });
    },
  };
}

function readLock(file: string): LockRecord | null {
  try {
    const record = JSON.parse(readFileSync(file, "utf8")) as Partial<LockRecord>;
    if (!Number.isInteger(record.router) || !Array.isArray(record.workers)) return null;
    return { router: record.router!, workers: record.workers.filter(Number.isInteger) };
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
