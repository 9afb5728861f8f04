/**
 * MCP as the agent reaches it on `serve --token T`: with its session's API token it gets its session's
 * tools and prompt, never the score (it names what the task expects), may hold a bounded number of MCP
 * sessions, and loses them when the trainer closes the env session.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { createGymHandler } from "../start-gym-server.ts";
import { PROMPT_URI, SCORE_URI } from "./create-mcp-server.ts";
import { MAX_PER_SESSION } from "./http-handler.ts";

const TOKEN = "trainer-token-0123456789";
type Handler = ReturnType<typeof createGymHandler>;

async function openSession(handler: Handler) {
  const res = await handler.fetch(
    new Request("http://gym.test/v1/sessions", {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ task_id: "jira-edit-fields-v1/eval/0" }),
    }),
  );
  expect(res.status).toBe(200);
  return (await res.json()) as { session_id: string; rest_api_token: string };
}

/** An SDK client on the gym's `/mcp?session=<sid>`, with this bearer token (`mcpSessionId` to rejoin one). */
async function connect(handler: Handler, sid: string, token: string, mcpSessionId?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`http://gym.test/mcp?session=${sid}`), {
    fetch: async (url, init) => handler.fetch(new Request(url, init)),
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    ...(mcpSessionId ? { sessionId: mcpSessionId } : {}),
  });
  const client = new Client({ name: "agent", version: "1" });
  await client.connect(transport);
  return client;
}

const uris = async (client: Client) => (await client.listResources()).resources.map((r) => r.uri).sort();

describe("MCP on a session's API token (the agent's)", () => {
  it("offers the session's tools and prompt but not the score, which only the trainer reads", async () => {
    const handler = createGymHandler({ seed: 1, token: TOKEN });
    const { session_id: sid, rest_api_token: agentToken } = await openSession(handler);
    const agent = await connect(handler, sid, agentToken);
    expect(await uris(agent)).not.toContain(SCORE_URI);
    expect(await uris(agent)).toContain(PROMPT_URI);
    expect(agent.getInstructions()).not.toContain(SCORE_URI);
    expect((await agent.listTools()).tools.length).toBeGreaterThan(3);
    await expect(agent.readResource({ uri: SCORE_URI })).rejects.toThrow(/not found/);

    const trainer = await connect(handler, sid, TOKEN);
    expect(await uris(trainer)).toContain(SCORE_URI);
    const score = (await trainer.readResource({ uri: SCORE_URI })).contents[0] as { text: string };
    expect(JSON.parse(score.text)).toMatchObject({ reward: expect.any(Number) });

    // The agent does not reach an MCP session the trainer opened (its id learned somehow): the score is listed there.
    const trainerSession = (trainer.transport as StreamableHTTPClientTransport).sessionId!;
    const borrowed = await connect(handler, sid, agentToken, trainerSession); // a reconnection: no request yet
    await expect(borrowed.listResources()).rejects.toThrow(/Session not found/);
    await expect(borrowed.readResource({ uri: SCORE_URI })).rejects.toThrow(/Session not found/);
    expect(await uris(trainer)).toContain(SCORE_URI);
    await handler.mcp.close();
  });

  it(`holds at most ${MAX_PER_SESSION} of the agent's MCP sessions per env session, all closed with it`, async () => {
    const handler = createGymHandler({ seed: 1, token: TOKEN });
    const { session_id: sid, rest_api_token: agentToken } = await openSession(handler);
    const other = await openSession(handler);
    const clients = [];
    for (let i = 0; i < MAX_PER_SESSION; i++) clients.push(await connect(handler, sid, agentToken));
    await expect(connect(handler, sid, agentToken)).rejects.toThrow(/Too many MCP sessions on env session/);
    // The trainer's are not counted: the agent cannot lock it out.
    await connect(handler, sid, TOKEN);
    // Another session's agent is not crowded out.
    const neighbour = await connect(handler, other.session_id, other.rest_api_token);
    expect(handler.mcp.size).toBe(MAX_PER_SESSION + 2);

    const closed = await handler.fetch(
      new Request(`http://gym.test/v1/sessions/${sid}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${TOKEN}` },
      }),
    );
    expect(closed.status).toBe(200);
    expect(handler.mcp.size).toBe(1);
    await expect(clients[0]!.listTools()).rejects.toThrow();
    await expect(neighbour.listTools()).resolves.toMatchObject({ tools: expect.any(Array) });
    await handler.mcp.close();
  });
});
