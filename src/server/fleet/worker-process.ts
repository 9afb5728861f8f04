/**
 * One `atlas-gym serve` as a supervised child process on a fixed loopback port with its own journal: if
 * it dies (a crash, the OOM killer, kill -9) it is started again on the same port with the same journal,
 * which rebuilds every session it had open, so a client (or the fleet router) that waits across the gap
 * carries on where it was. Used by `atlas-gym train` (one server) and by `serve --workers N` (a fleet).
 *
 * A worker never outlives its supervisor: its stdin is a pipe from the supervisor that is never written
 * to, and the kernel closes the supervisor's end when the supervisor ends, however it ends (exit, crash,
 * SIGKILL, the OOM killer). The worker (`serve`, told so by SUPERVISED_ENV) reads that end, and on EOF
 * shuts down (`exitWithSupervisor`). An orphan left running would keep its journal folder and, once its
 * session TTL passed, reap its stale copies of sessions that a newer process serves from the same folder,
 * deleting their journal files. A pipe is used rather than watching the parent pid: it needs no polling,
 * it fires at once, and it does not depend on who adopts an orphan (PID 1, or a subreaper in a container or
 * a service manager, whose pid a "ppid is 1" check would not recognise).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../../bin/atlas-gym", import.meta.url));
const URL_LINE = /atlas-gym serving seed \d+ at (http:\/\/\S+)/;
/** What the server says of its journal at start (`Journal: <dir> (N sessions rebuilt...)`). */
const JOURNAL_LINE = /^\s*Journal:\s+(.*)\n/m;

/**
 * Set (to "stdin") in a supervised worker's environment: its stdin is the supervisor's lifeline, and the
 * worker shuts down when it closes (see the top, and `exitWithSupervisor`).
 */
export const SUPERVISED_ENV = "ATLAS_GYM_SUPERVISOR_PIPE";

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
  /** Called with the pid of every process started (the first and each restart), as soon as it exists. */
  onSpawn?: (pid: number) => void;
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
  // What a start rebuilt from the journal (or set aside) is said, as a single server prints it.
  const launch = () =>
    start(args, options.env ?? {}, options.output ?? "inherit", options.onSpawn, (journal) => {
      if (!journal.endsWith("(0 sessions rebuilt)")) log(`${name}: journal ${journal}`);
    });
  let child = await launch();
  let up = true;
  let restarts = 0;
  let closing = false;
  let gaveUp: Error | null = null;
  let upWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  let restartWaiters: (() => void)[] = [];

  const giveUp = (error: Error) => {
    gaveUp = error;
    log(`${error.message}, not restarting`);
    for (const w of upWaiters.splice(0)) w.reject(error);
  };
  /**
   * Starts it again, as often as the restarts allow: a start that fails (the new process killed or
   * crashing before it serves) counts as a restart and is tried again, so a worker is never left down
   * while restarts remain.
   */
  const restart = async (how: string): Promise<ChildProcess | null> => {
    let why = `exited (${how})`;
    while (restarts < maxRestarts) {
      restarts++;
      log(`${name} ${why}; restarting it with its journal (restart ${restarts} of ${maxRestarts})`);
      try {
        return await launch();
      } catch (error) {
        why = `did not start (${(error as Error).message})`;
        if (closing) return null;
        await new Promise((resolve) => setTimeout(resolve, Math.min(100 * restarts, 1000)));
      }
    }
    giveUp(new Error(`${name} ${why}; ${maxRestarts} restarts spent`));
    return null;
  };
  const supervise = (running: ChildProcess) =>
    running.once("exit", async (code, signal) => {
      up = false;
      if (closing) return;
      const next = await restart(signal ?? `code ${code}`);
      if (next === null) return;
      child = next;
      if (closing) {
        // Closed while this one started (e.g. Ctrl-C reached the worker and the supervisor together).
        child.kill("SIGTERM");
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

/** Starts `atlas-gym serve` and resolves once it prints its URL and journal line (given to `onJournal`). */
function start(
  args: string[],
  env: Record<string, string>,
  output: "inherit" | "ignore",
  onSpawn?: (pid: number) => void,
  onJournal?: (line: string) => void,
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    // stdin: the lifeline (see the top). This end is never written to; it closes when this process ends.
    const child = spawn(BIN, args, {
      stdio: ["pipe", "pipe", output],
      env: { ...process.env, ...env, [SUPERVISED_ENV]: "stdin" },
    });
    child.stdin!.on("error", () => {}); // the worker's end going away is no error of the supervisor's
    if (child.pid !== undefined) onSpawn?.(child.pid);
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk;
      if (!URL_LINE.test(out)) return;
      // The journal line comes right after the URL line (a server always has one here).
      const journal = JOURNAL_LINE.exec(out);
      if (journal === null && out.length < 65_536) return;
      if (journal !== null) onJournal?.(journal[1]!.trim());
      child.stdout!.off("data", onData);
      child.stdout!.resume(); // keep draining the server's output
      resolve(child);
    };
    child.stdout!.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(new Error(`atlas-gym serve exited with code ${code} before serving:\n${out}`)),
    );
  });
}

/**
 * In a worker started by `startWorkerProcess` (SUPERVISED_ENV set): calls `stop` once its supervisor is
 * gone (stdin reaches EOF, however the supervisor ended), and exits after `graceMs` if `stop` has not
 * ended the process by then. Does nothing in a process started any other way.
 */
export function exitWithSupervisor(stop: () => unknown, graceMs = 10_000): void {
  if (process.env[SUPERVISED_ENV] !== "stdin") return;
  delete process.env[SUPERVISED_ENV]; // not inherited by anything this process starts
  let gone = false;
  const onGone = () => {
    if (gone) return;
    gone = true;
    setTimeout(() => process.exit(1), graceMs).unref();
    console.error("atlas-gym serve: its supervisor is gone (its pipe closed); shutting down");
    stop();
  };
  process.stdin.on("data", () => {}); // nothing is sent; reading is how the end is noticed
  process.stdin.once("end", onGone);
  process.stdin.once("close", onGone);
  process.stdin.once("error", onGone);
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
