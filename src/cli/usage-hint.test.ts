import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { deadPort } from "../../test/support/dead-port.ts";
import { addUsageHints } from "./usage-hint.ts";

const BIN = fileURLToPath(new URL("../../bin/atlas-gym", import.meta.url));

/** Parses `args` with a program holding one command `run --k <k>`; returns what went to stderr. */
function stderrOf(args: string[]): string {
  let err = "";
  const program = new Command("atlas-gym").exitOverride().configureOutput({ writeErr: (s) => (err += s) });
  program
    .command("run")
    .option("--k <k>", "samples")
    .action(() => {});
  addUsageHints(program);
  for (const c of program.commands) c.exitOverride().configureOutput({ writeErr: (s) => (err += s) });
  try {
    program.parse(["node", "atlas-gym", ...args]);
  } catch {}
  return err;
}

describe("usage errors", () => {
  it.each([
    [["run", "--bogus"], "error: unknown option '--bogus'\n(run `atlas-gym run --help` for usage)\n"],
    [["run", "--k"], "error: option '--k <k>' argument missing\n(run `atlas-gym run --help` for usage)\n"],
    [["--bogus"], "error: unknown option '--bogus'\n(run `atlas-gym --help` for usage)\n"],
  ])("%j prints the error and a one-line hint, not the help", (args, expected) => {
    expect(stderrOf(args)).toBe(expected);
  });

  it("the real CLI does the same for an unknown eval flag", () => {
    const run = spawnSync(BIN, ["eval", "--bogus"], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("error: unknown option '--bogus'\n(run `atlas-gym eval --help` for usage)\n");
  });

  it("mcp --server with nothing listening exits 1 with the address", async () => {
    const origin = `http://127.0.0.1:${await deadPort()}`;
    const run = spawnSync(BIN, ["mcp", "--session", "s-1", "--server", origin], {
      encoding: "utf8",
      input: "",
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`No atlas-gym serve answers at ${origin}`);
    expect(run.stdout).toBe("");
  });
});
