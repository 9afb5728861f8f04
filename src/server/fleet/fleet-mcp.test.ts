/**
 * A token-less fleet (`serve --workers 2`) in process: free MCP sandboxes go round the workers, and every
 * later request of an MCP session reaches the worker that holds it, through the router, with the official
 * SDK client; the router refuses what a web page could send it.
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

describe("a token-less serve --workers 2", () => {
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

  it("refuses, token-less, what a web page could send the router, as a single server does", async () => {
    const crossSite = await fetch(`${fleet.url}/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "https://evil.example" },
      body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ code: "forbidden" });
    const mcp = await fetch(`${fleet.url}/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "sec-fetch-site": "cross-site",
        "sec-fetch-mode": "no-cors",
      },
      body: "{}",
    });
    expect(mcp.status).toBe(403);
  });
});
