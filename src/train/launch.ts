/**
 * `atlas-gym train`: validates the training config, starts the env server on a free loopback port (a
 * supervised child process with a journal, restarted if it crashes: see env-server-process.ts),
 * launches the Python trainer (`python -m atlas_gym.train --config-json <validated config> --server <url>
 * [--resume <checkpoint>]`) with its output forwarded, and stops both cleanly: when the trainer exits the
 * server closes (with `--server <url>[,<url>...]` it uses running env servers instead, a fleet or several,
 * and leaves them running: see running-env-servers.ts); on Ctrl-C or SIGTERM the launcher forwards the
 * signal once to the trainer (which runs in its own process group), waits for it to finish (then kills it after a grace period) and closes the
 * server. After a successful run it writes the training report (`<output_dir>/training_report.html`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../errors.ts";
import { HELD_OUT, SCENARIOS } from "../scenarios/index.ts";
import { loadTrainConfig } from "./config.ts";
import { startEnvServerProcess } from "./env-server-process.ts";
import { useRunningEnvServers } from "./running-env-servers.ts";
import { TRAINING_LOG } from "./training-log.ts";
import { writeTrainingReport } from "./training-report.ts";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PYTHON_DIR = resolve(REPO_ROOT, "python");

export interface LaunchOptions {
  configPath: string;
  /** The Python interpreter; default python/.venv/bin/python when present, else python3. */
  python?: string;
  /** Seconds the trainer gets to stop after a forwarded signal before it is killed. */
  graceSeconds?: number;
  /** Where progress lines go (default console.error, so stdout stays the trainer's). */
  log?: (line: string) => void;
  /** A `checkpoint-N/` or `interrupted/` directory of an earlier run to resume from. */
  resume?: string;
  /** Env servers already running (one URL, a fleet's, or several comma-separated); default: start one. */
  server?: string;
}

/** The interpreter to run the trainer with. */
export function defaultPython(): string {
  const venv = resolve(PYTHON_DIR, ".venv", "bin", "python");
  return existsSync(venv) ? venv : "python3";
}

/** Runs a training job to the end; resolves with the exit code the CLI should exit with. */
export async function launchTraining(options: LaunchOptions): Promise<number> {
  const log = options.log ?? ((line: string) => console.error(line));
  const configPath = resolve(options.configPath);
  const config = loadTrainConfig(
    configPath,
    SCENARIOS.map((s) => s.id),
    HELD_OUT,
  );
  const python = options.python ?? defaultPython();
  const server = options.server
    ? await useRunningEnvServers(options.server, process.env.ATLAS_GYM_TOKEN)
    : Object.assign(await startEnvServerProcess({ log }), { closing: "env server closed" });
  log(
    `atlas-gym train: env server at ${server.url}; model ${config.model} on ${config.scenarios.join(", ")}`,
  );
  const args = ["-m", "atlas_gym.train", "--config-json", JSON.stringify(config), "--server", server.url];
  if (options.resume) args.push("--resume", resolve(options.resume));
  log(
    `atlas-gym train: ${python} -m atlas_gym.train --config-json <${configPath}, validated> --server ${server.url}`,
  );

  let child: ChildProcess;
  try {
    child = await spawnTrainer(python, args);
  } catch (error) {
    await server.close();
    throw error;
  }

  let stopping: NodeJS.Signals | null = null;
  let killTimer: NodeJS.Timeout | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return; // one forwarded signal; a second Ctrl-C does not interrupt the trainer's clean-up
    stopping = signal;
    log(
      `atlas-gym train: ${signal}: stopping the trainer (killed if still running after ${options.graceSeconds ?? 30} s)`,
    );
    child.kill(signal);
    killTimer = setTimeout(() => child.kill("SIGKILL"), (options.graceSeconds ?? 30) * 1000);
    killTimer.unref();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) =>
    child.once("exit", (c, s) => done([c, s])),
  );
  clearTimeout(killTimer);
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  const open = await server.openSessions();
  await server.close();
  log(
    `atlas-gym train: trainer ${signal ? `ended by ${signal}` : `exited with code ${code}`}; ${server.closing} (${open} sessions were still open)`,
  );
  if (code === 0 && !stopping && existsSync(join(resolve(config.output_dir), TRAINING_LOG))) {
    const report = await writeTrainingReport(resolve(config.output_dir));
    log(`atlas-gym train: wrote ${report.path} (${report.steps} steps)`);
  }
  // A run stopped by a signal exits as one (130 for Ctrl-C), unless the trainer itself reported a failure.
  if (code !== null && (code !== 0 || !stopping)) return code;
  return 128 + (SIGNAL_NUMBERS[stopping ?? signal ?? "SIGTERM"] ?? 15);
}

const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** Starts the trainer in its own process group (so Ctrl-C reaches only the launcher, which forwards it). */
function spawnTrainer(python: string, args: string[]): Promise<ChildProcess> {
  const env = {
    ...process.env,
    PYTHONPATH: [PYTHON_DIR, process.env.PYTHONPATH].filter(Boolean).join(delimiter),
    PYTHONUNBUFFERED: "1",
  };
  return new Promise((ok, fail) => {
    const child = spawn(python, args, { stdio: ["ignore", "inherit", "inherit"], env, detached: true });
    child.once("spawn", () => ok(child));
    child.once("error", (error: NodeJS.ErrnoException) =>
      fail(
        error.code === "ENOENT"
          ? new UsageError(
              `Cannot run the trainer: '${python}' not found. Create the Python environment (python/.venv, see the README's training section) or pass --python <interpreter>.`,
            )
          : error,
      ),
    );
  });
}
