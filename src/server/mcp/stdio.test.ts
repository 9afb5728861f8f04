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

  it("answers params that do not fit the method with -32602 Invalid params, and changes nothing", async () => {
    const init =
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
    const lines = [
      init,
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"jira_add_comment","arguments":"ENG-1"}}',
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}',
      '{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{}}',
      '{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"atlas-gym://site"}}',
    ];
    const { out } = await run(`${lines.join("\n")}\n`, (o) => o.includes('"id":5'));
    const answers = new Map(
      out
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { id: number; error?: { code: number; message: string } })
        .map((a) => [a.id, a]),
    );
    for (const [id, where] of [
      [2, "params.arguments"],
      [3, "params.name"],
      [4, "params.uri"],
    ] as const) {
      expect(answers.get(id)?.error?.code, `id ${id}`).toBe(-32602);
      expect(answers.get(id)?.error?.message).toContain(where);
    }
    // The site is as it was: no call ran (its digest counts the calls).
    const site = answers.get(5) as unknown as { result: { contents: { text: string }[] } };
    expect(JSON.parse(site.result.contents[0]!.text)).toMatchObject({ calls: 0 });
  });

  it("ends with exit code 1 and the reason on a line past its buffer", async () => {
    const { code, out, err } = await run(`${"x".repeat(11 * 1024 * 1024)}\n`);
    expect(out).toBe("");
    expect(err).toMatch(/atlas-gym mcp: ReadBuffer exceeded maximum size of 10485760 bytes/);
    expect(code).toBe(1);
  });
});
