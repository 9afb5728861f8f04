import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { createEpisode } from "../../env/episode.ts";
import { MAX_BODY_BYTES } from "../../http/read-body.ts";
import { tasksFor } from "../../scenarios/frozen.ts";
import { findScenario } from "../../scenarios/index.ts";
import { createSessionStore } from "../sessions.ts";
import { SCORE_URI } from "./create-mcp-server.ts";
import { FINAL_ANSWER_TOOL } from "./final-answer.ts";
import { createMcpHttpHandler, type McpHttpHandler } from "./http-handler.ts";

/** An SDK client talking to the handler in process (its fetch stands in for the network). */
async function connect(handler: McpHttpHandler, query = "", token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`http://mcp.test/mcp${query}`), {
    fetch: (url, init) => handler.fetch(new Request(url, init)),
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
  });
  const client = new Client({ name: "unit", version: "1" });
  await client.connect(transport);
  return client;
}

describe("the /mcp handler", () => {
  it("closes MCP sessions idle past the TTL, and caps how many are open", async () => {
    let now = 0;
    const handler = createMcpHttpHandler({ seed: 1, ttlMs: 1000, maxSessions: 2, clock: () => now });
    const first = await connect(handler);
    await connect(handler);
    expect(handler.size).toBe(2);
    await expect(connect(handler)).rejects.toThrow(/Too many MCP sessions/);
    now = 600;
    await first.listTools(); // keeps the first one alive
    now = 1200;
    await connect(handler); // reaps the idle second one to make room
    expect(handler.size).toBe(2);
    await expect(first.listTools()).resolves.toMatchObject({ tools: expect.any(Array) });
    now = 5000;
    expect(handler.reap()).toBe(2);
    await expect(first.listTools()).rejects.toThrow(/Session not found/);
  });

  it("needs the bearer token when one is set", async () => {
    const handler = createMcpHttpHandler({ seed: 1, token: "t0k" });
    await expect(connect(handler, "", "wrong")).rejects.toThrow(/Unauthorized/);
    await expect(connect(handler, "", "t0kX")).rejects.toThrow(/Unauthorized/);
    const client = await connect(handler, "", "t0k");
    expect((await client.listTools()).tools.length).toBeGreaterThan(10);
    await handler.close();
    expect(handler.size).toBe(0);
  });

  it("binds to an env-server session and orders its calls through the session's lock", async () => {
    const sessions = createSessionStore({ newId: () => "ses-unit" });
    const scenario = findScenario("jira-transition-v1");
    const task = tasksFor(scenario, "eval", 1)[0]!;
    const session = sessions.create(() => createEpisode(scenario, task));
    const handler = createMcpHttpHandler({ seed: 1, sessions });
    const client = await connect(handler, "?tools=rovo&session=ses-unit");
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
      "getJiraIssue",
      "getTransitionsForJiraIssue",
      "searchJiraIssuesUsingJql",
      FINAL_ANSWER_TOOL,
      "transitionJiraIssue",
    ]);
    const key = (task.expected as { issueKey: string }).issueKey;
    const calls = await Promise.all(
      [1, 2, 3].map(() => client.callTool({ name: "getJiraIssue", arguments: { issueIdOrKey: key } })),
    );
    expect(calls.every((c) => !c.isError)).toBe(true);
    expect(session.episode.calls.map((c) => c.name)).toEqual([
      "getJiraIssue",
      "getJiraIssue",
      "getJiraIssue",
    ]);
    const score = JSON.parse(
      ((await client.readResource({ uri: SCORE_URI })).contents[0] as { text: string }).text,
    );
    expect(score).toMatchObject({ reward: expect.any(Number), passed: false, mode: "paper" });
    expect(score.violations.map((v: { code: string }) => v.code)).toContain("early_stop_after_read");
  });

  it("keeps the bound env session alive while its MCP session is used, a tools/list included", async () => {
    let now = 0;
    const sessions = createSessionStore({ newId: () => "ses-kept", ttlMs: 1000, clock: () => now });
    const scenario = findScenario("jira-transition-v1");
    sessions.create(() => createEpisode(scenario, tasksFor(scenario, "eval", 1)[0]!));
    const handler = createMcpHttpHandler({ seed: 1, sessions, ttlMs: 10_000, clock: () => now });
    const client = await connect(handler, "?session=ses-kept");
    for (now = 600; now <= 3000; now += 600) {
      await client.listTools();
      sessions.reap();
    }
    expect(sessions.find("ses-kept")).toBeDefined();
    now += 1000;
    sessions.reap();
    expect(sessions.find("ses-kept")).toBeUndefined();
  });

  it("refuses a body over the size limit before reading it whole, and bad JSON", async () => {
    const handler = createMcpHttpHandler({ seed: 1 });
    const post = (body: string) =>
      handler.fetch(
        new Request("http://mcp.test/mcp", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body,
        }),
      );
    const big = await post(
      JSON.stringify({ jsonrpc: "2.0", method: "x", params: { pad: "x".repeat(MAX_BODY_BYTES) } }),
    );
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { message: string } }).error.message).toMatch(
      /larger than the 1048576 byte limit/,
    );
    const bad = await post("{not json");
    expect(bad.status).toBe(400);
    expect(handler.size).toBe(0);
  });

  it("answers a tools/call whose arguments are not an object with -32602 Invalid params, running nothing", async () => {
    const sessions = createSessionStore({ newId: () => "ses-params" });
    const scenario = findScenario("jira-transition-v1");
    const session = sessions.create(() => createEpisode(scenario, tasksFor(scenario, "eval", 1)[0]!));
    const handler = createMcpHttpHandler({ seed: 1, sessions });
    const client = await connect(handler, "?session=ses-params");
    const { sessionId, protocolVersion } = client.transport as StreamableHTTPClientTransport;
    /** A JSON-RPC body sent raw on the client's MCP session (the SDK client would not send it). */
    const send = (body: unknown) =>
      handler.fetch(
        new Request("http://mcp.test/mcp?session=ses-params", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-session-id": sessionId!,
            "mcp-protocol-version": protocolVersion!,
          },
          body: JSON.stringify(body),
        }),
      );
    const call = { name: "jira_get_issue", arguments: "ENG-1" };
    const raw = await send({ jsonrpc: "2.0", id: 9, method: "tools/call", params: call });
    const answer = (await raw.json()) as { id: number; error: { code: number; message: string } };
    expect(answer.id).toBe(9);
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toMatch(/^Invalid params for tools\/call: params\.arguments: /);
    // A batch that repeats the id of an invalid call: the second answer has no request left to go with,
    // which must not take the server down (it did: an unhandled rejection).
    const bad = { jsonrpc: "2.0", id: 1, method: "tools/call", params: {} };
    expect(JSON.stringify(await (await send([bad, bad])).json())).toContain("-32602");
    await new Promise((resolve) => setTimeout(resolve, 20)); // let a stray rejection surface, if any
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(session.episode.calls).toHaveLength(0);
  });
});
