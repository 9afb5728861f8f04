/** `atlas-gym compare` as users run it: prints the table and writes compare.md and compare.json. */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { evaluate } from "../../eval/evaluate.ts";

const BIN = fileURLToPath(new URL("../../../bin/atlas-gym", import.meta.url));

async function runOf(model: string) {
  const dir = mkdtempSync(join(tmpdir(), "atlas-compare-cli-"));
  const config = {
    model,
    scenarios: ["jira-transition-v1"],
    split: "eval" as const,
    n: 2,
    k: 1,
    concurrency: 2,
    seed: 0,
    reward: "paper" as const,
    maxTurns: 30,
  };
  await evaluate({ dir, config });
  return dir;
}

describe("atlas-gym compare (child process)", () => {
  it("prints the paper-style table and writes compare.md and compare.json to --out", async () => {
    const a = await runOf("policy:noop");
    const b = await runOf("policy:reference");
    const out = join(mkdtempSync(join(tmpdir(), "atlas-compare-out-")), "cmp");
    const { stdout } = await promisify(execFile)(BIN, ["compare", a, b, "--out", out, "--resamples", "300"]);
    expect(stdout).toContain(`A = ${a} (policy:noop)`);
    expect(stdout).toMatch(/jira-transition-v1\s+2\s+0\.000\s+1\.000\s+\+1\.000 \[1\.00, 1\.00\] \*/);
    const json = JSON.parse(readFileSync(join(out, "compare.json"), "utf8"));
    expect(json.method.resamples).toBe(300);
    expect(json.scenarios["jira-transition-v1"].mean_reward.delta).toBe(1);
    expect(json.scenarios["jira-transition-v1"].pass_hat_k.delta).toBe(1);
    expect(readFileSync(join(out, "compare.md"), "utf8")).toContain("| overall | 2 |");
  });

  it("says when a run directory does not exist", async () => {
    const run = promisify(execFile)(BIN, ["compare", "/nonexistent/a", "/nonexistent/b"]);
    await expect(run).rejects.toMatchObject({ code: 1, stderr: "error: /nonexistent/a does not exist\n" });
  });

  it("rejects a bad --level with a clear message", async () => {
    const run = promisify(execFile)(BIN, ["compare", "a", "b", "--level", "95"]);
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("--level must be a number between 0 and 1"),
    });
  });
});
