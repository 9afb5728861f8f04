/**
 * Soak: memory stays bounded by the configured limits under churn, through the combined `serve` handler
 * in process (no sockets, so the figures are the server's own): 100k distinct isolated sites (every
 * tenth one written), 50k env-server sessions opened, called and closed, and MCP sessions initialised
 * and abandoned to the reaper. A fake clock moves time on so idle sites and MCP sessions expire, and
 * the reaper runs as the server's timer would. Heap (after GC) and RSS are taken before and after each
 * phase; the peak number of sites and MCP sessions held is checked against the limits.
 */
import { createGymHandler, reapIdle } from "../src/server/start-gym-server.ts";
import { type BenchRow, fmt, gc } from "./measure.ts";

const SITES = 100_000;
const SESSIONS = 50_000;
const MCP_SESSIONS = 5_000;
const LIMITS = { maxSites: 1000, siteTtlMs: 60_000, maxSessions: 256, sessionTtlMs: 60_000 };

interface Memory {
  heap: number;
  rss: number;
}

function memory(): Memory {
  gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heap: heapUsed, rss };
}

const mb = (bytes: number) => `${fmt(bytes / 2 ** 20)} MB`;
const growth = (before: Memory, after: Memory) =>
  `heap ${mb(before.heap)} → ${mb(after.heap)} (${after.heap >= before.heap ? "+" : ""}${mb(after.heap - before.heap)}), RSS ${mb(before.rss)} → ${mb(after.rss)}`;

export async function benchSoak(): Promise<BenchRow[]> {
  let now = 1_000_000;
  const handler = createGymHandler({ seed: 1, clock: () => now, ...LIMITS });
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await handler.fetch(
      new Request(`http://soak.test${path}`, {
        method,
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    if (response.status >= 300 && response.status !== 429)
      throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
    return { status: response.status, text, headers: response.headers };
  };
  const rows: BenchRow[] = [];

  // Isolated sites: 100 new ids every 10 simulated seconds; each idles out after the TTL.
  const sitesBefore = memory();
  let peakSites = 0;
  let refused = 0;
  const start = performance.now();
  for (let i = 0; i < SITES; i++) {
    if (i % 100 === 0) {
      now += 10_000;
      reapIdle(handler);
    }
    const path = `/s/soak-${i}/rest/api/3/issue/ENG-1`;
    const answer =
      i % 10 === 0
        ? await send("PUT", path, { fields: { summary: `Soak ${i}` } })
        : await send("GET", `${path}?fields=summary`);
    if (answer.status === 429) refused++;
    peakSites = Math.max(peakSites, handler.sites.size);
  }
  const sitesMs = performance.now() - start;
  now += LIMITS.siteTtlMs;
  reapIdle(handler);
  const sitesAfter = memory();
  rows.push({
    name: `${fmt(SITES, 0)} isolated sites (1 in 10 written), --max-sites ${LIMITS.maxSites}`,
    value: `${growth(sitesBefore, sitesAfter)}; peak ${peakSites} held, ${refused} refused (429); ${fmt((SITES / sitesMs) * 1000, 0)} req/s`,
    target: `peak ≤ ${LIMITS.maxSites}`,
  });
  if (peakSites > LIMITS.maxSites) throw new Error(`held ${peakSites} sites, over the limit`);

  // Env-server sessions: opened, one tool call, closed.
  const sessionsBefore = memory();
  const sessionsStart = performance.now();
  for (let i = 0; i < SESSIONS; i++) {
    const opened = JSON.parse(
      (await send("POST", "/v1/sessions", { scenario: "jira-transition-v1", split: "train", index: i % 64 }))
        .text,
    ) as { session_id: string };
    await send("POST", `/v1/sessions/${opened.session_id}/tools/jira_get_issue`, {
      arguments: { issueIdOrKey: "ENG-1", fields: ["summary"] },
      seq: 1,
    });
    await send("DELETE", `/v1/sessions/${opened.session_id}`);
  }
  const sessionsMs = performance.now() - sessionsStart;
  const sessionsAfter = memory();
  rows.push({
    name: `${fmt(SESSIONS, 0)} sessions opened, called and closed`,
    value: `${growth(sessionsBefore, sessionsAfter)}; ${handler.sessions.size} open after; ${fmt((SESSIONS / sessionsMs) * 1000, 0)} sessions/s`,
    target: "0 open after",
  });

  // MCP sessions: initialised and abandoned; the timer's reaper closes them after the TTL.
  const mcpBefore = memory();
  let peakMcp = 0;
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "soak", version: "1" } },
  };
  for (let i = 0; i < MCP_SESSIONS; i++) {
    if (i % 100 === 0) {
      now += 60_000;
      reapIdle(handler);
    }
    await send("POST", "/mcp", initialize, { accept: "application/json, text/event-stream" });
    peakMcp = Math.max(peakMcp, handler.mcp.size);
  }
  now += 11 * 60_000;
  reapIdle(handler);
  const mcpAfter = memory();
  rows.push({
    name: `${fmt(MCP_SESSIONS, 0)} MCP sessions initialised and abandoned`,
    value: `${growth(mcpBefore, mcpAfter)}; peak ${peakMcp} open, ${handler.mcp.size} after the reaper`,
    target: "0 after the reaper",
  });
  await handler.mcp.close();
  return rows;
}
