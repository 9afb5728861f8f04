/**
 * The MCP Streamable HTTP endpoint `/mcp` of `atlas-gym serve`, on a real loopback port, with the SDK's
 * own client: each tool set's tools, every covered scenario solved through each set while bound to an
 * env-server session (scored 1.0 by /v1/sessions/{sid}/score and by the MCP score resource), bad
 * arguments (an MCP tool error, nothing changed), isolation of concurrent sessions, protocol errors.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tasksFor } from "../src/scenarios/frozen.ts";
import { SCENARIOS } from "../src/scenarios/index.ts";
import { PROMPT_URI, SCORE_URI, SITE_URI } from "../src/server/mcp/create-mcp-server.ts";
import { type RunningGymServer, startGymServer } from "../src/server/start-gym-server.ts";
import { TOOL_SET_NAMES, type ToolSetName, toolSet } from "../src/tools/aliases/tool-sets.ts";
import { callTool, connectHttp, readJson, readText, solveOverMcp } from "./mcp-support.ts";

let server: RunningGymServer;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startGymServer({ port: 0, seed: 1 });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
});

const connect = async (query: string) => {
  const client = await connectHttp(`${server.url}/mcp${query}`);
  clients.push(client);
  return client;
};

async function openSession(task: { scenario: string; split: string; index: number }): Promise<string> {
  const response = await fetch(`${server.url}/v1/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(task),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { session_id: string }).session_id;
}

/** Scores a session, first recording the agent's final answer when given (a refusal pays only with one). */
const scoreOf = async (sid: string, finalMessage?: string) =>
  (await (
    await fetch(`${server.url}/v1/sessions/${sid}/score`, {
      method: "POST",
      ...(finalMessage === undefined
        ? {}
        : {
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ final_message: finalMessage }),
          }),
    })
  ).json()) as {
    reward: number;
    explanation: string;
  };

describe("tools/list", () => {
  it.each(TOOL_SET_NAMES)("offers every tool of the %s set with its own JSON Schema", async (set) => {
    const client = await connect(`?tools=${set}`);
    const { tools } = await client.listTools();
    const expected = toolSet(set);
    expect(tools.map((t) => t.name).sort()).toEqual([...expected.keys()].sort());
    for (const tool of tools) {
      const { $schema: _, ...schema } = tool.inputSchema as Record<string, unknown>;
      expect(schema).toEqual(expected.get(tool.name)!.parameters);
      expect(tool.annotations?.readOnlyHint).toBe(expected.get(tool.name)!.operation.effect === "read");
    }
  });
});

/** Every covered (set, scenario) pair, on eval tasks 0 and 8 (level 1, and level 2 or 3). */
const cases = TOOL_SET_NAMES.flatMap((set) =>
  SCENARIOS.filter((s) => set === "default" || s.aliasSolutions?.[set]).flatMap((s) =>
    [0, 8].map((index) => [set, s.id, index] as [ToolSetName, string, number]),
  ),
);

describe("a bound env-server session", () => {
  it.each(cases)("%s solves %s eval %i and scores 1.0", async (set, scenarioId, index) => {
    const sid = await openSession({ scenario: scenarioId, split: "eval", index });
    const client = await connect(`?tools=${set}&session=${sid}`);
    const task = tasksFor(SCENARIOS.find((s) => s.id === scenarioId)!, "eval", 1, index)[0]!;
    expect(await readText(client, PROMPT_URI)).toBe(task.prompt);
    expect(client.getInstructions()).toContain(task.prompt);
    const final = await solveOverMcp(client, set, task);
    expect(final.length).toBeGreaterThan(0);
    const score = await scoreOf(sid, final);
    expect(score.reward, score.explanation).toBe(1);
    expect((await readJson<{ reward: number }>(client, SCORE_URI)).reward).toBe(1);
    const trace = (await (await fetch(`${server.url}/v1/sessions/${sid}/trace`)).json()) as {
      calls: { name: string }[];
    };
    const names = toolSet(set);
    expect(trace.calls.length).toBeGreaterThan(0);
    expect(trace.calls.every((c) => names.has(c.name))).toBe(true);
  });

  it("refuses a tool set that does not cover the session's scenario", async () => {
    const sid = await openSession({ scenario: "confluence-page-label-v1", split: "eval", index: 0 });
    const response = await initialize(`?tools=rovo&session=${sid}`);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("does not cover scenario confluence-page-label-v1");
  });

  it("closes its MCP sessions with the env session: a later call is told so, and so is a new one", async () => {
    const sid = await openSession({ scenario: "jira-transition-v1", split: "eval", index: 0 });
    const client = await connect(`?session=${sid}`);
    await fetch(`${server.url}/v1/sessions/${sid}`, { method: "DELETE" });
    await expect(callTool(client, "jira_get_issue", { issueIdOrKey: "ENG-1" })).rejects.toThrow(
      /Session not found: it was closed or reaped/,
    );
    await expect(connect(`?session=${sid}`)).rejects.toThrow(new RegExp(`session ${sid} not found`));
  });
});

describe("bad arguments", () => {
  const bad: [ToolSetName, string, Record<string, unknown>][] = [
    ["default", "jira_create_issue", { fields: { project: { key: "ENG" } } }],
    ["default", "confluence_create_page", { spaceId: "not-a-number", title: "x" }],
    ["rovo", "createJiraIssue", { projectKey: "ENG", summary: 5 }],
    ["rovo", "createConfluencePage", { spaceId: "999999", title: "x", body: "# hi" }],
    [
      "mcp-atlassian",
      "jira_create_issue",
      { project_key: "ENG", summary: "x", issue_type: "Task", additional_fields: "{not json" },
    ],
    ["mcp-atlassian", "jira_assign_issue", { issue_key: "ENG-1", assignee: "nobody-at-all" }],
    ["mcp-atlassian", "confluence_create_page", { space_key: "NOPE", title: "x", content: "y" }],
  ];
  it.each(bad)("%s %s: an MCP tool error, and the site is unchanged", async (set, name, args) => {
    const client = await connect(`?tools=${set}`);
    const before = await readJson<{ hash: string }>(client, SITE_URI);
    const answer = await callTool(client, name, args);
    expect(answer.ok).toBe(false);
    expect(answer.text).toMatch(/^Error (400|404)/);
    expect((await readJson<{ hash: string }>(client, SITE_URI)).hash).toBe(before.hash);
  });
});

describe("concurrent sessions", () => {
  it("each MCP session has its own site", async () => {
    const sessions = await Promise.all([1, 2, 3, 4].map(() => connect("?tools=rovo")));
    const pristine = await readJson<{ hash: string }>(sessions[0]!, SITE_URI);
    const created = await Promise.all(
      sessions.slice(0, 3).map((client, i) =>
        callTool(client, "createJiraIssue", {
          projectKey: "ENG",
          issueTypeName: "Task",
          summary: `Concurrent ${i}`,
          description: "Made **over MCP**.",
        }),
      ),
    );
    // Same seed, one write each: every session gives its new issue the same key.
    expect(new Set(created.map((c) => (c.body as { key: string }).key)).size).toBe(1);
    const hashes = await Promise.all(sessions.map((c) => readJson<{ hash: string }>(c, SITE_URI)));
    expect(hashes[3]!.hash).toBe(pristine.hash);
    expect(new Set(hashes.slice(0, 3).map((h) => h.hash)).size).toBe(3);
    const key = (created[0]!.body as { key: string }).key;
    const seen = await callTool(sessions[0]!, "getJiraIssue", {
      issueIdOrKey: key,
      fields: ["summary", "description"],
    });
    expect(seen.body).toMatchObject({ fields: { summary: "Concurrent 0" } });
    expect(JSON.stringify(seen.body)).toContain('"marks":[{"type":"strong"}]');
    expect((await callTool(sessions[3]!, "getJiraIssue", { issueIdOrKey: key })).ok).toBe(false);
  });
});

async function initialize(query: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/mcp${query}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });
}

describe("protocol errors", () => {
  it("are JSON-RPC errors with a 4xx status", async () => {
    const cases: [Promise<Response>, number, string][] = [
      [initialize("?tools=jira-cloud"), 400, "Unknown tool set"],
      [initialize("?session=ses-missing"), 404, "ses-missing not found"],
      [fetch(`${server.url}/mcp`), 405, "no SSE stream"],
      [initialize("", { "mcp-session-id": "nope" }), 404, "Session not found"],
      [
        fetch(`${server.url}/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{",
        }),
        400,
        "Parse error",
      ],
    ];
    for (const [pending, status, text] of cases) {
      const response = await pending;
      expect(response.status).toBe(status);
      const body = (await response.json()) as { jsonrpc: string; error: { message: string } };
      expect(body.jsonrpc).toBe("2.0");
      expect(body.error.message).toContain(text);
    }
  });
});
