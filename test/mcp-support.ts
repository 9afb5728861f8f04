/**
 * Helpers of the MCP suites: the SDK's own Client over stdio (spawning ./bin/atlas-gym mcp) or over
 * Streamable HTTP, a driver that runs a solution (default reference or alias solution) through a client,
 * the final answer of a bound session, and readers for the session's resources.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type AliasSolution, type Answer, aliasSolution } from "../src/scenarios/alias-solution.ts";
import type { Task } from "../src/scenarios/define-scenario.ts";
import { findScenario } from "../src/scenarios/index.ts";
import { FINAL_ANSWER_TOOL } from "../src/server/mcp/final-answer.ts";
import type { ToolSetName } from "../src/tools/aliases/tool-sets.ts";

export const BIN = new URL("../bin/atlas-gym", import.meta.url).pathname;

export interface Connected {
  client: Client;
  stderr: () => string;
}

/** Spawns `atlas-gym mcp <args>` and connects the SDK client to it over stdio. */
export async function connectStdio(args: string[]): Promise<Connected> {
  const transport = new StdioClientTransport({ command: BIN, args: ["mcp", ...args], stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "atlas-gym-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/**
 * Connects the SDK client to a `/mcp` endpoint over Streamable HTTP; `fetch` sends its requests
 * elsewhere than the network (a handler in process).
 */
export async function connectHttp(url: string | URL, token?: string, fetch?: FetchLike): Promise<Client> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers }, fetch });
  const client = new Client({ name: "atlas-gym-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** One tool call over MCP, as a solution sees it: ok and the parsed JSON body. */
export async function callTool(
  client: Client,
  name: string,
  args: unknown,
): Promise<Answer & { text: string }> {
  const result = await client.callTool({ name, arguments: args as Record<string, unknown> });
  const text = (result.content as { type: string; text: string }[])[0]?.text ?? "";
  if (result.isError) return { ok: false, body: null, text };
  return { ok: true, body: text === "" || text.startsWith("Done") ? null : JSON.parse(text), text };
}

/**
 * Runs the solution of `set` for a task through a client: the scenario's reference for `default`, the
 * scenario's alias solution otherwise (its folder's alias-solutions.ts). Returns the final message.
 */
export async function solveOverMcp(client: Client, set: ToolSetName, task: Task): Promise<string> {
  const scenario = findScenario(task.scenario);
  const solution: AliasSolution =
    set === "default"
      ? (scenario.reference(task) as unknown as AliasSolution)
      : aliasSolution(scenario, set, task)!;
  let next = solution.next();
  while (!next.done) {
    const answer = await callTool(client, next.value.name, next.value.arguments);
    if (!answer.ok) throw new Error(`${next.value.name} failed: ${answer.text}`);
    next = solution.next(answer);
  }
  return next.value;
}

/** Gives the final answer through a bound session's `submit_final_answer` tool; its answer as text. */
export async function submitFinalAnswer(
  client: Client,
  answer: unknown,
): Promise<{ isError: boolean; text: string }> {
  const result = await client.callTool({ name: FINAL_ANSWER_TOOL, arguments: { answer } });
  const text = (result.content as { type: string; text: string }[])[0]?.text ?? "";
  return { isError: result.isError === true, text };
}

export async function readJson<T>(client: Client, uri: string): Promise<T> {
  const result = await client.readResource({ uri });
  return JSON.parse((result.contents[0] as { text: string }).text) as T;
}

export async function readText(client: Client, uri: string): Promise<string> {
  const result = await client.readResource({ uri });
  return (result.contents[0] as { text: string }).text;
}
