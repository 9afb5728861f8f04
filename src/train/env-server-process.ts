/**
 * The env server of a training run as a supervised child process (`atlas-gym serve --journal DIR` on a
 * fixed loopback port): if it dies (a crash, the OOM killer, kill -9) while the run goes on, it is started
 * again on the same port with the same journal, which rebuilds every open session, so the trainer's
 * client (which retries across the gap) carries on where it was. Closing it stops it and removes the
 * journal.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/atlas-gym", import.meta.url));
const URL_LINE = /atlas-gym serving seed \d+ at (http:\/\/\S+)/;

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
  const log = options.log ?? (() => {});
  const maxRestarts = options.maxRestarts ?? 10;
  const journal = mkdtempSync(join(tmpdir(), "atlas-gym-journal-"));
  const port = await freePort();
  const args = ["serve", "--port", String(port), "--journal", journal];
  let child = await start(args);
  let restarts = 0;
  let closing = false;
  let waiters: (() => void)[] = [];

  const supervise = (running: ChildProcess) =>
    running.once("exit", async (code, signal) => {
      if (closing) return;
      if (restarts >= maxRestarts) {
        log(
          `atlas-gym train: env server exited (${signal ?? `code ${code}`}); ${maxRestarts} restarts spent, not restarting`,
        );
        return;
      }
      restarts++;
      log(`atlas-gym train: env server exited (${signal ?? `code ${code}`}); restarting it with its journal`);
      child = await start(args);
      supervise(child);
      for (const resolve of waiters.splice(0)) resolve();
    });
  supervise(child);
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    get pid() {
      return child.pid!;
    },
    get restarts() {
      return restarts;
    },
    nextRestart: () => new Promise((resolve) => waiters.push(resolve)),
    async openSessions() {
      try {
        return ((await (await fetch(`${url}/health`)).json()) as { sessions: number }).sessions;
      } catch {
        return null;
      }
    },
    async close() {
      closing = true;
      waiters = [];
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(journal, { recursive: true, force: true });
    },
  };
}

/** Starts `atlas-gym serve` and resolves once it prints its URL. */
function start(args: string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk;
      if (URL_LINE.test(out)) {
        child.stdout!.off("data", onData);
        child.stdout!.resume(); // keep draining the server's output
        resolve(child);
      }
    };
    child.stdout!.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(new Error(`atlas-gym serve exited with code ${code} before serving:\n${out}`)),
    );
  });
}

/** A loopback port free right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
