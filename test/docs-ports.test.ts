/**
 * The docs (README.md and docs/) show one env-server port: the one `atlas-gym serve` listens on by
 * default. Model servers (vLLM on :8000) and the view's own
 * default port are other servers and are not checked.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerServe } from "../src/cli/commands/serve.ts";

const ROOT = join(import.meta.dirname, "..");
const FILES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

function servePort(): number {
  const program = new Command();
  registerServe(program);
  const port = program.commands[0]!.options.find((o) => o.long === "--port")!.defaultValue as number;
  return port;
}

/** Ports the docs give to the env server: `serve --port N`, `--server URL`, `--env-url URL`, `--env URL`. */
function envServerPorts(text: string): number[] {
  const patterns = [
    /atlas-gym serve\b[^\n]*?--port (\d+)/g,
    /--(?:server|env-url|env) https?:\/\/[^\s:/]+:(\d+)/g,
    /(?:127\.0\.0\.1|localhost):(\d+)\/(?:v1\/sessions|mcp|health|rest|wiki)/g,
  ];
  return patterns.flatMap((p) => [...text.matchAll(p)].map((m) => Number(m[1])));
}

describe("one default port in the docs", () => {
  const port = servePort();

  it.each(FILES)("%s uses serve's default port for the env server", (file) => {
    const ports = envServerPorts(readFileSync(join(ROOT, file), "utf8"));
    expect(ports.filter((p) => p !== port)).toEqual([]);
  });

  it("finds the ports it checks (a stale 8787 would be caught)", () => {
    expect(
      envServerPorts("./bin/atlas-gym serve --port 8787 --token T\ncurl localhost:8787/v1/sessions"),
    ).toEqual([8787, 8787]);
  });
});
