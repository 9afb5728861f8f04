/**
 * `atlas-gym train` with a fake trainer standing in for `python -m atlas_gym.train`: a small Node script
 * that checks its arguments, talks to the env server it was given, and then exits, waits for a signal,
 * or ignores signals, as each test needs.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startFleet } from "../server/fleet/start-fleet.ts";
import { freePort } from "../server/fleet/worker-process.ts";
import { launchTraining } from "./launch.ts";

const BIN = fileURLToPath(new URL("../../bin/atlas-gym", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "atlas-train-"));
const config = join(dir, "config.yaml");
writeFileSync(config, "model: tiny\nscenarios: [jira-transition-v1]\nnum_generations: 2\nmax_steps: 2\n");

const FAKE = join(dir, "fake-python");
writeFileSync(
  FAKE,
  `#!/usr/bin/env node
const [m, module, c, configJson, s, url] = process.argv.slice(2);
if (m !== "-m" || module !== "atlas_gym.train" || c !== "--config-json" || s !== "--server") process.exit(64);
const given = JSON.parse(configJson); // validated, with the schema's defaults filled in
const configPath = [given.model, given.num_generations, given.loss_type, given.train_tasks].join("/");
const health = await (await fetch(url + "/health")).json();
const opened = await fetch(url + "/v1/sessions", { method: "POST", body: JSON.stringify({ task_id: "jira-transition-v1/train/0" }) });
const mode = process.env.FAKE_MODE;
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    if (mode === "stubborn") return console.log("IGNORED", signal);
    console.log("STOPPED", signal);
    process.exit(0);
  });
console.log("READY", url, configPath, health.status, opened.status, process.env.PYTHONPATH);
if (process.env.FAKE_READY_FILE) (await import("node:fs")).writeFileSync(process.env.FAKE_READY_FILE, "");
if (mode === "exit3") process.exit(3);
if (mode === "log") {
  const { mkdirSync, writeFileSync } = await import("node:fs");
  mkdirSync(given.output_dir, { recursive: true });
  const step = { step: 1, mean_reward: 0.5, min_reward: 0, max_reward: 1, zero_variance_share: 0 };
  writeFileSync(given.output_dir + "/training_log.jsonl", JSON.stringify(step) + "\\n");
  process.exit(0);
}
setInterval(() => {}, 1000);
`,
);
chmodSync(FAKE, 0o755);

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** Launches in this process with the fake trainer in `mode`; `ready` resolves once it is up. */
function launch(mode: string, configPath = config, server?: string) {
  const lines: string[] = [];
  const readyFile = join(dir, `ready-${mode}`);
  const saved = { FAKE_MODE: process.env.FAKE_MODE, FAKE_READY_FILE: process.env.FAKE_READY_FILE };
  Object.assign(process.env, { FAKE_MODE: mode, FAKE_READY_FILE: readyFile });
  const code = launchTraining({
    configPath,
    python: FAKE,
    graceSeconds: 1,
    log: (l) => lines.push(l),
    server,
  });
  const restore = () => {
    for (const [key, value] of Object.entries(saved))
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
  };
  const ready = async () => {
    while (!existsSync(readyFile)) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  return { code, lines, restore, ready };
}

describe("atlas-gym train", () => {
  it("runs the trainer against a live env server and closes it when the trainer exits", async () => {
    const { code, lines, restore } = launch("exit3");
    try {
      expect(await code).toBe(3);
    } finally {
      restore();
    }
    const url = /env server at (http:\/\/\S+);/.exec(lines[0]!)?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.at(-1)).toMatch(/exited with code 3; env server closed \(1 sessions were still open\)/);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });

  it("writes the training report after a successful run", async () => {
    const out = join(dir, "run-log");
    const withLog = join(dir, "log.yaml");
    writeFileSync(
      withLog,
      `model: tiny\nscenarios: [jira-transition-v1]\nnum_generations: 2\noutput_dir: ${out}\n`,
    );
    const { code, lines, restore } = launch("log", withLog);
    try {
      expect(await code).toBe(0);
    } finally {
      restore();
    }
    expect(lines).toContain(`atlas-gym train: wrote ${join(out, "training_report.html")} (1 steps)`);
    expect(readFileSync(join(out, "training_report.html"), "utf8")).toContain("<svg");
  });

  it("forwards SIGTERM once, lets the trainer stop, then closes the server (exit 143)", async () => {
    const child = spawn(BIN, ["train", "--config", config, "--python", FAKE], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FAKE_MODE: "wait" },
    });
    children.push(child);
    let out = "";
    let err = "";
    child.stderr!.on("data", (d: Buffer) => (err += d));
    await new Promise<void>((resolve) =>
      child.stdout!.on("data", (d: Buffer) => {
        out += d;
        if (out.includes("READY")) resolve();
      }),
    );
    const [, url, configPath, health, opened, pythonPath] = out.trim().split(/\s+/);
    expect([configPath, health, opened]).toEqual(["tiny/2/dapo/512", "ok", "200"]);
    expect(pythonPath!.split(":")[0]).toMatch(/\/python$/);
    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    expect(code).toBe(143);
    expect(out).toContain("STOPPED SIGTERM");
    expect(err).toMatch(/SIGTERM: stopping the trainer/);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });

  it("kills a trainer that ignores the signal after the grace period (exit 130 on Ctrl-C)", async () => {
    const { code, lines, restore, ready } = launch("stubborn");
    try {
      await ready();
      process.emit("SIGINT", "SIGINT");
      process.emit("SIGINT", "SIGINT"); // a second Ctrl-C is not forwarded again
      expect(await code).toBe(130);
    } finally {
      restore();
    }
    expect(lines.filter((l) => l.includes("stopping the trainer"))).toHaveLength(1);
    expect(lines.at(-1)).toMatch(/ended by SIGKILL; env server closed/);
  });

  it("refuses a bad config before starting anything, and names a missing interpreter", async () => {
    const bad = join(dir, "bad.yaml");
    writeFileSync(bad, "model: tiny\nscenarios: [nope-v1]\n");
    const marker = join(dir, "started");
    await expect(launchTraining({ configPath: bad, python: `touch ${marker}` })).rejects.toThrow(
      /invalid training config:\n {2}scenarios: unknown scenario "nope-v1"/,
    );
    expect(existsSync(marker)).toBe(false);
    await expect(
      launchTraining({ configPath: config, python: join(dir, "no-such-python"), log: () => {} }),
    ).rejects.toThrow(/'.*no-such-python' not found\. Create the Python environment/);
  });
});

describe("atlas-gym train --server", () => {
  it("trains against a running fleet (serve --workers 2) and leaves it running", async () => {
    const fleet = await startFleet({ workers: 2, port: 0, output: "ignore" });
    try {
      const { code, lines, restore } = launch("exit3", config, `${fleet.url}/`);
      try {
        expect(await code).toBe(3);
      } finally {
        restore();
      }
      expect(lines[0]).toContain(`env server at ${fleet.url};`);
      expect(lines.at(-1)).toMatch(
        /exited with code 3; env servers left running \(1 sessions were still open\)/,
      );
      const after = (await (await fetch(`${fleet.url}/health`)).json()) as { sessions: number };
      expect(after.sessions).toBe(1);
    } finally {
      await fleet.close();
    }
  }, 60_000);

  it("names a server that is down and starts nothing", async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const marker = join(dir, "started-down");
    await expect(
      launchTraining({ configPath: config, python: `touch ${marker}`, server: `${down}`, log: () => {} }),
    ).rejects.toThrow(
      new RegExp(`1 of 1 env servers given with --server do not answer /health.*${down} \\(`),
    );
    await expect(
      launchTraining({ configPath: config, python: `touch ${marker}`, server: "ftp://x", log: () => {} }),
    ).rejects.toThrow(/--server URLs must look like http:\/\/10\.0\.0\.5:4010, got "ftp:\/\/x"/);
    expect(existsSync(marker)).toBe(false);
  });
});
