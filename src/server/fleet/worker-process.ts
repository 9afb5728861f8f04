/**
 * One `atlas-gym serve` as a supervised child process on a fixed loopback port with its own journal: if
 * it dies (a crash, the OOM killer, kill -9) it is started again on the same port with the same journal,
 * which rebuilds every session it had open, so a client (or the fleet router) that waits across the gap
 * carries on where it was. Used by `atlas-gym train` (one server) and by `serve --workers N` (a fleet).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../../bin/atlas-gym", import.meta.url));
const URL_LINE = /atlas-gym serving seed \d+ at (http:\/\/\S+)/;

export interface WorkerProcessOptions {
  /** Loopback port it serves on (the same after every restart). */
  port: number;
  /** Journal folder (`serve --journal`), kept across restarts. */
  journal: string;
  /** Further `serve` arguments. */
  args?: string[];
  /** Extra environment for the child. */
  env?: Record<string, string>;
  /** Restarts allowed before a crash is left to stand. Default 10. */
  maxRestarts?: number;
  /** Where the child's own output goes: inherited (default), or dropped. */
  output?: "inherit" | "ignore";
  /** How log lines name it, e.g. "atlas-gym train: env server". */
  name?: string;
  /** Says when the process exited and whether it is restarted. */
  log?: (line: string) => void;
}

export interface WorkerProcess {
  readonly url: string;
  /** The process now running (tests kill it to simulate a crash). */
  readonly pid: number;
  readonly restarts: number;
  /** Whether the process is serving right now. */
  readonly up: boolean;
  /** Resolves once it is serving (at once when it is up); rejects when it will not come back. */
  ready(): Promise<void>;
  /** Resolves when it is up again after its next crash. */
  nextRestart(): Promise<void>;
  /** Stops it for good (SIGTERM, then waits for the exit). */
  close(): Promise<void>;
}

export async function startWorkerProcess(options: WorkerProcessOptions): Promise<WorkerProcess> {
  const log = options.log ?? (() => {});
  const maxRestarts = options.maxRestarts ?? 10;
  const name = options.name ?? `atlas-gym serve on port ${options.port}`;
  const args = [
    "serve",
    "--port",
    String(options.port),
    "--journal",
    options.journal,
    ...(options.args ?? []),
    // Last, so no further argument moves it: the worker is reached at its loopback URL only.
    "--host",
    "127.0.0.1",
  ];
  const launch = () => start(args, options.env ?? {}, options.output ?? "inherit");
  let child = await launch();
  let up = true;
  let restarts = 0;
  let closing = false;
  let gaveUp: Error | null = null;
  let upWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  let restartWaiters: (() => void)[] = [];

  const supervise = (running: ChildProcess) =>
    running.once("exit", async (code, signal) => {
      up = false;
      if (closing) return;
      const how = signal ?? `code ${code}`;
      if (restarts >= maxRestarts) {
        gaveUp = new Error(`${name} exited (${how}); ${maxRestarts} restarts spent`);
        log(`${gaveUp.message}, not restarting`);
        for (const w of upWaiters.splice(0)) w.reject(gaveUp);
        return;
      }
      restarts++;
      log(`${name} exited (${how}); restarting it with its journal`);
      try {
        child = await launch();
      } catch (error) {
        gaveUp = error as Error;
        for (const w of upWaiters.splice(0)) w.reject(gaveUp);
        return;
      }
      up = true;
      supervise(child);
      for (const w of upWaiters.splice(0)) w.resolve();
      for (const resolve of restartWaiters.splice(0)) resolve();
    });
  supervise(child);

  return {
    url: `http://127.0.0.1:${options.port}`,
    get pid() {
      return child.pid!;
    },
    get restarts() {
      return restarts;
    },
    get up() {
      return up;
    },
    ready: () =>
      up
        ? Promise.resolve()
        : gaveUp
          ? Promise.reject(gaveUp)
          : new Promise((resolve, reject) => upWaiters.push({ resolve, reject })),
    nextRestart: () => new Promise((resolve) => restartWaiters.push(resolve)),
    async close() {
      closing = true;
      restartWaiters = [];
      upWaiters = [];
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
    },
  };
}

/** Starts `atlas-gym serve` and resolves once it prints its URL. */
function start(
  args: string[],
  env: Record<string, string>,
  output: "inherit" | "ignore",
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, args, {
      stdio: ["ignore", "pipe", output],
      env: { ...process.env, ...env },
    });
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
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
