/**
 * The env server of a training run as a supervised child process (`atlas-gym serve --journal DIR` on a
 * fixed loopback port, see server/fleet/worker-process.ts): if it dies (a crash, the OOM killer, kill -9)
 * while the run goes on, it is started again on the same port with the same journal, which rebuilds every
 * open session, so the trainer's client (which retries across the gap) carries on where it was. Closing
 * it stops it and removes the journal.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, startWorkerProcess } from "../server/fleet/worker-process.ts";

export interface EnvServerProcessOptions {
  /** Restarts allowed over the run before a crash is left to end it. Default 10. */
  maxRestarts?: number;
  log?: (line: string) => void;
}

export interface SupervisedEnvServer {
  url: string;
  /** The server process now running (tests kill it to simulate a crash). */
  readonly pid: number;
  readonly restarts: number;
  /** Resolves when the server is up again after its next crash. */
  nextRestart(): Promise<void>;
  /** Sessions open now, from /health (null when the server does not answer). */
  openSessions(): Promise<number | null>;
  close(): Promise<void>;
}

export async function startEnvServerProcess(
  options: EnvServerProcessOptions = {},
): Promise<SupervisedEnvServer> {
  const journal = mkdtempSync(join(tmpdir(), "atlas-gym-journal-"));
  const worker = await startWorkerProcess({
    port: await freePort(),
    journal,
    maxRestarts: options.maxRestarts,
    name: "atlas-gym train: env server",
    log: options.log,
  });
  return {
    url: worker.url,
    get pid() {
      return worker.pid;
    },
    get restarts() {
      return worker.restarts;
    },
    nextRestart: () => worker.nextRestart(),
    async openSessions() {
      try {
        return ((await (await fetch(`${worker.url}/health`)).json()) as { sessions: number }).sessions;
      } catch {
        return null;
      }
    },
    async close() {
      await worker.close();
      rmSync(journal, { recursive: true, force: true });
    },
  };
}
