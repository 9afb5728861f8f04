/**
 * `atlas-gym mcp` over stdio, fed raw lines: a line that is not JSON or not a JSON-RPC message is answered
 * with a JSON-RPC error (id null) and the server goes on answering; a line past the transport's 10 MiB
 * buffer ends the process with the reason on stderr and exit code 1, not silently.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../../../bin/atlas-gym", import.meta.url));

/** Runs `atlas-gym mcp`, writes `input`, closes stdin once `done(stdout)` holds (or at once when none). */
function run(input: string, done?: (out: string) => boolean) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(CLI, ["mcp"]);
    let [out, err] = ["", ""];
    child.stdout.on("data", (d: Buffer) => {
      out += d;
      if (done?.(out)) child.stdin.end();
    });
    child.stderr.on("data", (d: Buffer) => {
      err += d;
    });
    child.stdin.on("error", () => undefined); // the server may stop reading first
    child.on("exit", (code) => resolve({ code, out, err }));
    child.stdin.write(input);
    if (!done) child.stdin.end();
  });
}

describe("atlas-gym mcp over stdio, raw lines", () => {
  it("answers lines it cannot read with JSON-RPC errors and goes on", async () => {
    const ping = '{"jsonrpc":"2.0","id":7,"method":"ping"}';
    const { code, out, err } = await run(`{not json\n42\n${ping}\n`, (o) => o.includes('"id":7'));
    const answers = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(answers).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } },
      { jsonrpc: "2.0", id: 7, result: {} },
    ]);
    expect(err).toMatch(/^atlas-gym mcp: /);
    expect(code).toBe(0);
  });

  it("ends with exit code 1 and the reason on a line past its buffer", async () => {
    const { code, out, err } = await run(`${"x".repeat(11 * 1024 * 1024)}\n`);
    expect(out).toBe("");
    expect(err).toMatch(/atlas-gym mcp: ReadBuffer exceeded maximum size of 10485760 bytes/);
    expect(code).toBe(1);
  });
});
