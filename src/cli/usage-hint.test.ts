import { execFile, spawnSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { deadPort } from "../../test/support/dead-port.ts";
import { addUsageHints } from "./usage-hint.ts";

const BIN = fileURLToPath(new URL("../../bin/atlas-gym", import.meta.url));

/** Runs the CLI without blocking this process (a server in it must answer). */
function exec(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(BIN, args, { encoding: "utf8" }, (error, _stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stderr }),
    );
    child.stdin?.end();
  });
}

/** Parses `args` with a program holding one command `run --k <k>`; returns what went to stderr. */
function stderrOf(args: string[]): string {
  let err = "";
  const program = new Command("atlas-gym").exitOverride().configureOutput({ writeErr: (s) => (err += s) });
  program
    .command("run")
    .option("--k <k>", "samples")
    .action(() => {});
  program
    .command("report")
    .command("training <dir>")
    .action(() => {});
  addUsageHints(program);
  const quiet = (c: Command): void => {
    c.exitOverride().configureOutput({ writeErr: (s) => (err += s) });
    c.commands.forEach(quiet);
  };
  program.commands.forEach(quiet);
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
    [
      ["report", "training", "d", "--bogus"],
      "error: unknown option '--bogus'\n(run `atlas-gym report training --help` for usage)\n",
    ],
    [
      ["report", "training"],
      "error: missing required argument 'dir'\n(run `atlas-gym report training --help` for usage)\n",
    ],
  ])("%j prints the error and a one-line hint, not the help", (args, expected) => {
    expect(stderrOf(args)).toBe(expected);
  });

  it.each([["eval"], ["report", "training"]])(
    "the real CLI does the same for an unknown flag of %s",
    (...path) => {
      const run = spawnSync(BIN, [...path, "--bogus"], { encoding: "utf8" });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        `error: unknown option '--bogus'\n(run \`atlas-gym ${path.join(" ")} --help\` for usage)\n`,
      );
    },
  );

  it.each([[["--session", "s-1"]], [[]]])(
    "mcp --server %j with nothing listening exits 1 with the address",
    async (more) => {
      const origin = `http://127.0.0.1:${await deadPort()}`;
      const run = spawnSync(BIN, ["mcp", ...more, "--server", origin], { encoding: "utf8", input: "" });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`No atlas-gym serve answers at ${origin} (ECONNREFUSED)`);
      expect(run.stdout).toBe("");
    },
  );

  it("mcp --server refuses a server that is not atlas-gym serve, and asks for --session at one that is", async () => {
    const health = { status: 404, body: "" };
    const server = createServer((_req, res) => res.writeHead(health.status).end(health.body));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const other = await exec(["mcp", "--session", "s-1", "--server", origin]);
      expect(other.code).toBe(1);
      expect(other.stderr).toContain(
        `No atlas-gym serve answers at ${origin} (GET /health answered HTTP 404`,
      );
      Object.assign(health, { status: 200, body: '{"status":"ok"}' });
      const noSession = await exec(["mcp", "--server", origin]);
      expect(noSession.code).toBe(1);
      expect(noSession.stderr).toContain(`--server ${origin} needs --session <id>`);
    } finally {
      server.close();
    }
  });
});
