/**
 * MCP tool-call throughput, as ratios within one run: the SDK's own client calling jira_get_issue over
 * stdio (a spawned `atlas-gym mcp`) and over Streamable HTTP (`/mcp` of the gym server, a free sandbox
 * and a session bound to an env-server episode), beside the env-server API (`POST /v1/sessions/{sid}/
 * tools/{name}`) on the same server, each with 1 and 16 calls in flight. Episode-bound surfaces rotate
 * to a fresh session when a budget is spent (opening sessions is not timed).
 */
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startGymServer } from "../src/server/start-gym-server.ts";
import { type BenchRow, fmt } from "./measure.ts";

const ARGS = { issueIdOrKey: "ENG-1", fields: ["summary", "status"] };
const INFLIGHT = [1, 16];
const TASK = "jira-transition-v1/train/0";

type Call = () => Promise<void>;

/**
 * Calls per second with `inflight` lanes calling back to back for about `ms` (Little's law: lanes over
 * the mean call latency, so the untimed opening of sessions does not count), and the median latency.
 */
async function measure(ms: number, inflight: number, next: () => Promise<Call>) {
  const latencies: number[] = [];
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: inflight }, async () => {
      while (performance.now() < until) {
        const call = await next();
        const t = performance.now();
        await call();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
  latencies.sort((a, b) => a - b);
  return { perSecond: (inflight / mean) * 1000, p50: latencies[latencies.length >> 1]! };
}

async function mcpClient(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(transport);
  return client;
}

const mcpCall = (client: Client) => async () => {
  const result = await client.callTool({ name: "jira_get_issue", arguments: ARGS });
  if (result.isError) throw new Error(`MCP call failed: ${JSON.stringify(result.content)}`);
};

export async function benchMcp(seconds = 2): Promise<BenchRow[]> {
  const gym = await startGymServer({ port: 0, seed: 1, maxSessions: 100_000 });
  const bin = fileURLToPath(new URL("../bin/atlas-gym", import.meta.url));
  const stdio = await mcpClient(new StdioClientTransport({ command: bin, args: ["mcp"] }));
  const http = await mcpClient(new StreamableHTTPClientTransport(new URL(`${gym.url}/mcp`)));
  const openSession = async () => {
    const response = await fetch(`${gym.url}/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ task_id: TASK }),
    });
    const body = (await response.json()) as { session_id: string; limits: { max_tool_calls: number } };
    return { sid: body.session_id, budget: body.limits.max_tool_calls };
  };
  /** A source of calls that moves to a fresh session when the current one's budget is spent. */
  const rotating = <S>(open: () => Promise<S & { budget: number }>, call: (s: S) => Call) => {
    let current: Promise<S & { budget: number; used: number }> | null = null;
    return async () => {
      for (;;) {
        current ??= open().then((s) => ({ ...s, used: 0 }));
        const pending = current;
        const session = await pending;
        if (session.used < session.budget) {
          session.used++;
          return call(session);
        }
        if (current === pending) current = null;
      }
    };
  };
  const envApi = () =>
    rotating(openSession, ({ sid }) => async () => {
      const response = await fetch(`${gym.url}/v1/sessions/${sid}/tools/jira_get_issue`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ arguments: ARGS }),
      });
      if (!((await response.json()) as { ok: boolean }).ok) throw new Error("env-server call failed");
    });
  const bound: Client[] = [];
  const boundMcp = () =>
    rotating(
      async () => {
        const { sid, budget } = await openSession();
        const client = await mcpClient(
          new StreamableHTTPClientTransport(new URL(`${gym.url}/mcp?session=${sid}`)),
        );
        bound.push(client);
        return { client, budget };
      },
      ({ client }) => mcpCall(client),
    );
  const surfaces: [string, () => () => Promise<Call>][] = [
    ["env-server API (POST /v1/sessions/{sid}/tools)", envApi],
    ["MCP over Streamable HTTP, bound to env sessions", boundMcp],
    ["MCP over Streamable HTTP, free sandbox", () => async () => mcpCall(http)],
    ["MCP over stdio, free sandbox", () => async () => mcpCall(stdio)],
  ];
  try {
    const rows: BenchRow[] = [];
    let baseline = 0;
    for (const inflight of INFLIGHT) {
      for (const [name, source] of surfaces) {
        await measure(300, inflight, source()); // warm-up
        const { perSecond, p50 } = await measure(seconds * 1000, inflight, source());
        if (name.startsWith("env-server")) baseline = perSecond;
        const ratio = name.startsWith("env-server")
          ? ""
          : ` (${fmt((perSecond / baseline) * 100, 0)}% of the env-server API)`;
        rows.push({
          name: `${name}, ${inflight} in flight`,
          value: `${fmt(perSecond, 0)} calls/s, p50 ${fmt(p50, 2)} ms${ratio}`,
        });
      }
    }
    return rows;
  } finally {
    await Promise.all([stdio, http, ...bound].map((client) => client.close()));
    await gym.close();
  }
}
