/**
 * One writer per journal folder. Two servers on one `--journal` both appended to a session's file (two
 * records numbered 2), and the next start set the session aside: it was lost. Now a second `serve` on a
 * folder a running server holds is refused, naming that server's pid, and changes nothing; a plain server
 * is refused on a running fleet's folder and a fleet on a running server's; a server killed with SIGKILL
 * leaves a lock the next one takes over, rebuilding its sessions.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UsageError } from "../src/errors.ts";
import { lockJournal, lockServerJournal } from "../src/server/fleet/journal-lock.ts";
import { startGymServer } from "../src/server/start-gym-server.ts";
import { BIN, spawnServe } from "./support/serve-process.ts";

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), "atlas-journal-lock-"));
  dirs.push(dir);
  return dir;
};

async function serve(dir: string) {
  const started = await spawnServe(["--port", "0", "--journal", dir], (out) => out.includes("Journal:"));
  children.push(started.child);
  return started;
}

function runServe(dir: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(BIN, ["serve", "--port", "0", "--journal", dir], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, output })));
}

const kill9 = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });

describe("a journal folder has one writer", () => {
  it("refuses a second serve on a folder a running server holds, and lets the next take over after kill -9", async () => {
    const dir = folder();
    const first = await serve(dir);
    const opened = await fetch(`${first.url}/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
    });
    const { session_id: id } = (await opened.json()) as { session_id: string };
    const files = readdirSync(dir).sort();
    const journal = readFileSync(join(dir, `${id}.jsonl`), "utf8");

    const second = await runServe(dir);
    expect(second.code).toBe(1);
    expect(second.output).toContain(`in use by a running server (pid ${first.child.pid})`);
    expect(readdirSync(dir).sort()).toEqual(files);
    expect(readFileSync(join(dir, `${id}.jsonl`), "utf8")).toBe(journal);

    await kill9(first.child);
    const next = await serve(dir);
    expect(next.output).toContain("1 sessions rebuilt");
    const trace = await fetch(`${next.url}/v1/sessions/${id}/trace`);
    expect(trace.status).toBe(200);
  }, 60_000);

  it("refuses a plain server on a running fleet's folder, and a fleet on a running server's", async () => {
    const fleetDir = folder();
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    children.push(holder);
    writeFileSync(join(fleetDir, "fleet.lock"), JSON.stringify({ router: holder.pid, workers: [] }));
    expect(() => lockServerJournal(fleetDir)).toThrow(UsageError);
    await expect(startGymServer({ port: 0, seed: 1, journal: fleetDir })).rejects.toThrow(/running fleet/);

    const serverDir = folder();
    writeFileSync(join(serverDir, "server.lock"), JSON.stringify({ server: holder.pid }));
    await expect(lockJournal(serverDir, 0)).rejects.toThrow(`running server (pid ${holder.pid})`);
    await kill9(holder);
    const lock = await lockJournal(serverDir, 0);
    lock.release();
  });

  it("takes over a lock whose pid now names another process, or this one (a container's pid 1 restarted)", async () => {
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    children.push(holder);
    const reused = folder();
    writeFileSync(join(reused, "server.lock"), JSON.stringify({ server: holder.pid, started: "1" }));
    lockServerJournal(reused).release();
    const fleetReused = folder();
    writeFileSync(
      join(fleetReused, "fleet.lock"),
      JSON.stringify({ router: holder.pid, started: "1", workers: [] }),
    );
    (await lockJournal(fleetReused, 0)).release();
    const own = folder();
    writeFileSync(join(own, "fleet.lock"), JSON.stringify({ router: process.pid, workers: [] }));
    lockServerJournal(own).release();
    (await lockJournal(own, 0)).release();
    await kill9(holder);
  });

  it("takes over a lock this process left, and frees the folder when the server closes", async () => {
    const dir = folder();
    writeFileSync(join(dir, "server.lock"), JSON.stringify({ server: process.pid }));
    const server = await startGymServer({ port: 0, seed: 1, journal: dir });
    expect(JSON.parse(readFileSync(join(dir, "server.lock"), "utf8"))).toMatchObject({ server: process.pid });
    await server.close();
    expect(readdirSync(dir)).not.toContain("server.lock");
  });
});
