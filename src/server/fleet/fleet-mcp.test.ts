/**
 * Free MCP sandboxes on a fleet (`serve --workers 2`): new ones go round the workers, and every later
 * request of an MCP session reaches the worker that holds it, through the router, with the official SDK
 * client.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningFleet, startFleet } from "./start-fleet.ts";

let fleet: RunningFleet;
beforeAll(async () => {
  fleet = await startFleet({ workers: 2, port: 0, output: "ignore" });
}, 60_000);
afterAll(() => fleet?.close());

describe("free MCP sandboxes on serve --workers 2", () => {
  it("spreads them over the workers and keeps each one's calls on its own", async () => {
    const clients: { client: Client; transport: StreamableHTTPClientTransport }[] = [];
    for (let i = 0; i < 4; i++) {
      const transport = new StreamableHTTPClientTransport(new URL(`${fleet.url}/mcp?tools=rovo`));
      const client = new Client({ name: `fleet-${i}`, version: "1" });
      await client.connect(transport);
      clients.push({ client, transport });
    }
    const workers = clients.map(({ transport }) => /^mcp-w(\d+)-/.exec(transport.sessionId ?? "")?.[1]);
    expect(new Set(workers)).toEqual(new Set(["0", "1"]));
    for (const { client } of clients) {
      const issue = await client.callTool({
        name: "getJiraIssue",
        arguments: { cloudId: "x", issueIdOrKey: "ENG-1" },
      });
      expect(issue.isError).toBeFalsy();
    }
    for (const { transport } of clients) await transport.terminateSession();
  });
});
