/**
 * `atlas-gym eval` as users run it: the real binary in a child process against the fake OpenAI server on
 * loopback. The run is SIGKILLed while its model requests hang, a half-written line is left at the end
 * of the log, and `--resume` (settings from run.json) finishes it with every episode exactly once.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Behaviour,
  type FakeServer,
  scriptedBehaviour,
  startFakeOpenAIServer,
} from "../../../test/support/fake-openai-server.ts";
import { SCRIPTED_POLICIES } from "../../agent/scripted/policies.ts";
import { tasksFor } from "../../scenarios/frozen.ts";
import { findScenario } from "../../scenarios/index.ts";

const BIN = fileURLToPath(new URL("../../../bin/atlas-gym", import.meta.url));
const SCENARIOS = ["jira-transition-v1", "jira-subtask-create-v1"];
const entries = SCENARIOS.flatMap((id) => {
  const scenario = findScenario(id);
  return tasksFor(scenario, "eval", 2).map((task) => ({ scenario, task }));
});
const competent = scriptedBehaviour("reference", entries);

function start(args: string[]) {
  const child = spawn(BIN, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr!.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, exit, output: () => ({ stdout, stderr }) };
}

async function until(condition: () => boolean, child: ChildProcess): Promise<void> {
  while (!condition()) {
    if (child.exitCode !== null) throw new Error(`eval exited early with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("atlas-gym eval (child process)", () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeOpenAIServer(competent);
  });
  afterAll(() => server.close());

  it("survives SIGKILL mid-run: --resume finishes with every episode exactly once", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "atlas-eval-cli-")), "run");
    const log = join(dir, "episodes.jsonl");
    // Requests from the 21st on hang, so the run stalls with both workers mid-episode.
    const hangAfter = 20;
    const stalling: Behaviour = (r) => (r.index >= hangAfter ? { hang: true } : competent(r));
    server.setBehaviour(stalling);
    const model = `openai:${server.baseURL}#fake-model`;
    const args = ["eval", "--model", model, "--scenarios", SCENARIOS.join(","), "--n", "2", "--k", "2"];
    const first = start([...args, "--concurrency", "2", "--retries", "0", "--out", dir]);
    const before = server.requests.length;
    await until(() => server.requests.length >= before + hangAfter + 2, first.child);
    first.child.kill("SIGKILL");
    expect((await first.exit).signal).toBe("SIGKILL");

    const kept = readFileSync(log, "utf8");
    const keptCount = kept.split("\n").filter(Boolean).length;
    expect(keptCount).toBeGreaterThan(0);
    expect(keptCount).toBeLessThan(8);
    appendFileSync(log, '{"task_id":"jira-subtask-create-v1/eval/1","sample":0,"model":"fa');

    server.setBehaviour(competent);
    const second = start(["eval", "--resume", "--out", dir]);
    const { code } = await second.exit;
    const { stdout, stderr } = second.output();
    expect(code, stderr).toBe(0);
    const ran = 8 - keptCount;
    expect(stdout).toContain(`${ran} episode${ran === 1 ? "" : "s"} run, ${keptCount} already done`);
    expect(stdout).toMatch(/overall\s+8\s+8\s+0\s+1\.000/);
    expect(stderr).toContain("eval 8/8 episodes (100%)");
    expect(stdout.trimEnd().split("\n").at(-1)).toBe(`Read it in the browser: atlas-gym view ${dir}`);

    const text = readFileSync(log, "utf8");
    expect(text.startsWith(kept)).toBe(true);
    const lines = text.split("\n").filter(Boolean);
    expect(lines).toHaveLength(8);
    const keys = lines.map((l) => JSON.parse(l)).map((t) => `${t.task_id}#${t.sample}`);
    expect(new Set(keys).size).toBe(8);
    const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
    expect(results.model).toBe(model);
    expect(results.overall).toMatchObject({ episodes: 8, mean_reward: 1, pass_rate: 1, pass_hat_k: 1 });
  });

  it("says so when --resume finds no run in --out, and exits 1", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "atlas-eval-")), "never-ran");
    const { exit, output } = start(["eval", "--resume", "--out", dir]);
    expect((await exit).code).toBe(1);
    expect(output().stderr).toContain(`--resume found no run to continue in ${dir} (no run.json there)`);
  });

  it("stops on Ctrl-C (SIGINT): keeps finished episodes, writes no results, says how to resume", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "atlas-eval-cli-")), "run");
    const before = server.requests.length;
    server.setBehaviour((r) => (r.index >= before + 6 ? { hang: true } : competent(r)));
    const args = ["eval", "--model", `openai:${server.baseURL}#fake-model`, "--scenarios", SCENARIOS[0]!];
    const run = start([...args, "--n", "2", "--concurrency", "2", "--out", dir]);
    await until(() => server.requests.length >= before + 8, run.child);
    run.child.kill("SIGINT");
    expect((await run.exit).code).toBe(130);
    const { stderr } = run.output();
    expect(stderr).toContain(`continue with: atlas-gym eval --resume --out ${dir}`);
    expect(stderr).not.toContain("MaxListenersExceededWarning");
    expect(existsSync(join(dir, "results.json"))).toBe(false);
    expect(readFileSync(join(dir, "episodes.jsonl"), "utf8").split("\n").filter(Boolean).length).toBeLessThan(
      2,
    );
  });

  it("exits non-zero when episodes ended in provider errors, saying how to rerun them last", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "atlas-eval-cli-")), "run");
    const before = server.requests.length;
    // The 2nd request after preflight and its one retry fail: one episode ends in a provider error.
    const failing = (i: number) => i === before + 1 || i === before + 2;
    server.setBehaviour((r) => (failing(r.index) ? { status: 503 } : competent(r)));
    const args = ["eval", "--model", `openai:${server.baseURL}#fake-model`, "--scenarios", SCENARIOS[0]!];
    const run = start([...args, "--n", "2", "--concurrency", "1", "--retries", "1", "--out", dir]);
    const { code } = await run.exit;
    const { stdout } = run.output();
    expect(code).toBe(3);
    expect(stdout).toMatch(/overall\s+2\s+1\s+1\s+1\.000 \[1\.00, 1\.00\]/);
    // The summary names the cause: kind, status, retries, episode and the server's text.
    expect(stdout).toMatch(
      new RegExp(
        `\\n  last: server_error \\(HTTP 503\\) after 1 retry, on ${SCENARIOS[0]}/eval/0 sample 0: \\S`,
      ),
    );
    expect(stdout.trim().split("\n").at(-1)).toBe(
      `1 episode ended in a provider error and was not scored; rerun it with: atlas-gym eval --resume --out ${dir}`,
    );
    server.setBehaviour(competent);
    const again = start(["eval", "--resume", "--out", dir]);
    expect((await again.exit).code).toBe(0);
    expect(again.output().stdout).toContain("1 episode run, 1 already done");
  });

  it("stops with one line and exit 1 when the model server is down", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "atlas-eval-cli-")), "run");
    const run = start(["eval", "--model", "openai:http://127.0.0.1:9/v1#m", "--out", dir]);
    expect((await run.exit).code).toBe(1);
    expect(run.output().stderr.trim()).toBe(
      "error: model server http://127.0.0.1:9/v1 is unreachable (ECONNREFUSED); no episode was run",
    );
    expect(existsSync(dir)).toBe(false);
  });

  it("--help lists and describes every scripted policy", async () => {
    const help = start(["eval", "--help"]);
    expect((await help.exit).code).toBe(0);
    for (const policy of SCRIPTED_POLICIES)
      expect(help.output().stdout).toMatch(
        new RegExp(`policy:${policy.name}\\s+${policy.description.slice(0, 30).replace(/[()]/g, "\\$&")}`),
      );
  });

  it("rejects bad flags with a clear message and writes nothing", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "atlas-eval-cli-")), "run");
    const bad = start(["eval", "--model", "gpt-4", "--out", dir]);
    expect((await bad.exit).code).toBe(1);
    expect(bad.output().stderr).toContain("Invalid --model 'gpt-4'");
    expect(bad.output().stderr).not.toMatch(/\n\s+at /);
    expect(() => readFileSync(join(dir, "run.json"))).toThrow();
  });

  it("asks for --model instead of downloading a default model, and writes nothing", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "atlas-eval-cli-")), "run");
    // HOME elsewhere: a download would land in it; nothing may appear there.
    const home = mkdtempSync(join(tmpdir(), "atlas-eval-home-"));
    const run = spawnSync(BIN, ["eval", "--out", dir], {
      encoding: "utf8",
      env: { ...process.env, HOME: home },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^error: eval needs --model, e\.g\.\n/);
    for (const kind of ["openai:", "raw:", "policy:", "local:"])
      expect(run.stderr).toContain(`--model ${kind}`);
    expect(run.stderr).toContain("downloaded on first use");
    expect(existsSync(dir)).toBe(false);
    expect(readdirSync(home)).toEqual([]);
    const resume = spawnSync(BIN, ["eval", "--resume"], { encoding: "utf8" });
    expect(resume.status).toBe(1);
    expect(resume.stderr).toContain("--resume needs --out DIR");
  });
});
