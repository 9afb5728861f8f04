/**
 * Env-server benchmarks on loopback, as ratios within one run: tool calls per second with 256 sessions
 * called concurrently (each session used up to its call budget, then replaced), with p50/p99 latency,
 * beside a bare Hono route taking the same JSON body from the same client; and heap per idle session,
 * both for sessions that share their task's pristine site (a GRPO group) and for all-distinct tasks.
 */
import { Agent, request } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { startGymServer } from "../src/server/start-gym-server.ts";
import { type BenchRow, fmt, gc } from "./measure.ts";

const CONCURRENCY = 256;
const SCENARIO = "jira-transition-v1";
const CALL = JSON.stringify({ arguments: { issueIdOrKey: "ENG-1", fields: ["summary", "status"] } });

type Post = (path: string, body: string) => Promise<{ status: number; text: string }>;

function client(base: string): Post {
  const { hostname, port } = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  return (path, body) =>
    new Promise((resolve, reject) => {
      const headers = { "content-type": "application/json", "content-length": Buffer.byteLength(body) };
      const req = request({ host: hostname, port, method: "POST", path, agent, headers }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on("error", reject);
      req.end(body);
    });
}

interface Load {
  perSecond: number;
  p50: number;
  p99: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

/** Runs `worker` on CONCURRENCY lanes for about `ms`; each call returns its own latency samples. */
async function drive(
  ms: number,
  worker: (lane: number, until: number, latencies: number[]) => Promise<number>,
): Promise<Load> {
  const latencies: number[] = [];
  const start = performance.now();
  const until = start + ms;
  const counts = await Promise.all(
    Array.from({ length: CONCURRENCY }, (_, lane) => worker(lane, until, latencies)),
  );
  const elapsed = performance.now() - start;
  latencies.sort((a, b) => a - b);
  const total = counts.reduce((a, b) => a + b, 0);
  return {
    perSecond: (total / elapsed) * 1000,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
  };
}

async function timed(latencies: number[], call: () => Promise<{ status: number }>): Promise<void> {
  const t = performance.now();
  const { status } = await call();
  latencies.push(performance.now() - t);
  if (status !== 200) throw new Error(`benchmark request answered ${status}`);
}

export async function benchEnvServer(seconds = 5): Promise<BenchRow[]> {
  const bareApp = new Hono().post("/call", async (c) =>
    c.json({ ok: true, output: JSON.stringify(await c.req.json()) }),
  );
  const bare = await new Promise<{ url: string; close: () => void }>((resolve) => {
    const server = serve({ fetch: bareApp.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) =>
      resolve({ url: `http://127.0.0.1:${info.port}`, close: () => server.close() }),
    );
  });
  const gym = await startGymServer({ port: 0, seed: 1, maxSessions: 10_000 });
  try {
    const postBare = client(bare.url);
    const post = client(gym.url);
    const open = async (index: number) => {
      const answer = await post(
        "/v1/sessions",
        JSON.stringify({ task_id: `${SCENARIO}/eval/${index % 12}` }),
      );
      const { session_id, limits } = JSON.parse(answer.text) as {
        session_id: string;
        limits: { max_tool_calls: number };
      };
      return { sid: session_id, budget: limits.max_tool_calls };
    };
    await drive(500, async (_lane, until, latencies) => {
      let n = 0;
      while (performance.now() < until) {
        await timed(latencies, () => postBare("/call", CALL));
        n++;
      }
      return n;
    }); // warm-up
    const bareLoad = await drive(seconds * 1000, async (_lane, until, latencies) => {
      let n = 0;
      while (performance.now() < until) {
        await timed(latencies, () => postBare("/call", CALL));
        n++;
      }
      return n;
    });
    // Rounds: open 256 sessions (not timed), then time all 256 calling concurrently up to their budget.
    const envLatencies: number[] = [];
    let calls = 0;
    let callMs = 0;
    for (let round = 0; callMs < seconds * 1000; round++) {
      const sessions = await Promise.all(
        Array.from({ length: CONCURRENCY }, (_, lane) => open(round + lane)),
      );
      const start = performance.now();
      await Promise.all(
        sessions.map(async ({ sid, budget }) => {
          for (let i = 0; i < budget; i++) {
            await timed(envLatencies, () => post(`/v1/sessions/${sid}/tools/jira_get_issue`, CALL));
            calls++;
          }
        }),
      );
      callMs += performance.now() - start;
      for (const { sid } of sessions) gym.sessions.delete(sid);
    }
    envLatencies.sort((a, b) => a - b);
    const envLoad: Load = {
      perSecond: (calls / callMs) * 1000,
      p50: percentile(envLatencies, 0.5),
      p99: percentile(envLatencies, 0.99),
    };

    const heapPerSession = async (taskFor: (i: number) => object) => {
      gc();
      const before = process.memoryUsage().heapUsed;
      const ids: string[] = [];
      for (let i = 0; i < 1000; i++)
        ids.push(JSON.parse((await post("/v1/sessions", JSON.stringify(taskFor(i)))).text).session_id);
      gc();
      const perSession = (process.memoryUsage().heapUsed - before) / 1000;
      for (const id of ids) gym.sessions.delete(id);
      return perSession;
    };
    const grouped = await heapPerSession((i) => ({
      task_id: `${SCENARIO}/train/${60_000 + Math.floor(i / 8)}`,
    }));
    const distinct = await heapPerSession((i) => ({ task_id: `${SCENARIO}/train/${50_000 + i}` }));

    const ms = (v: number) => `${fmt(v, 2)} ms`;
    return [
      {
        name: `bare Hono POST route, ${CONCURRENCY} concurrent`,
        value: `${fmt(bareLoad.perSecond, 0)} req/s (p50 ${ms(bareLoad.p50)}, p99 ${ms(bareLoad.p99)})`,
      },
      {
        name: `tool calls (jira_get_issue), ${CONCURRENCY} concurrent sessions`,
        value: `${fmt(envLoad.perSecond, 0)} calls/s (${fmt((envLoad.perSecond / bareLoad.perSecond) * 100, 0)}% of bare; p50 ${ms(envLoad.p50)}, p99 ${ms(envLoad.p99)})`,
        target: "≥ 50% of bare",
      },
      { name: "heap per idle session, groups of 8 on one task", value: `${fmt(grouped / 1024, 1)} KB` },
      { name: "heap per idle session, all tasks distinct", value: `${fmt(distinct / 1024, 1)} KB` },
    ];
  } finally {
    bare.close();
    await gym.close();
  }
}
