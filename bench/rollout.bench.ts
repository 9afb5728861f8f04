/**
 * Rollout benchmarks. (1) Harness overhead per model call at concurrency 64: episodes through the
 * openai: provider against the fake model server (in its own process), comparing the time per call —
 * per request, and per episode from its creation to its score — with the server's own response time,
 * and the harness's CPU time per call. (2) Memory for 10,000 episodes in one run (policy:reference
 * through runEpisode): heap growth per retained trace, and what is left once the traces are dropped.
 */

import { fork } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { createPolicy } from "../src/agent/providers/index.ts";
import { runEpisode } from "../src/agent/rollout.ts";
import type { AnyPolicy, EpisodeTrace } from "../src/agent/types.ts";
import { createEpisode } from "../src/env/episode.ts";
import { tasksFor } from "../src/scenarios/frozen.ts";
import { findScenario } from "../src/scenarios/index.ts";
import { type BenchRow, fmt, gc } from "./measure.ts";

const SCENARIO = "jira-transition-v1";
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** Runs `count` episodes with `concurrency` in flight; `onTrace` sees each trace. */
async function runMany(
  policy: AnyPolicy,
  count: number,
  concurrency: number,
  onTrace: (t: EpisodeTrace, ms: number) => void,
) {
  const scenario = findScenario(SCENARIO);
  const tasks = tasksFor(scenario, "eval");
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const started = performance.now();
      const trace = await runEpisode(createEpisode(scenario, tasks[i % tasks.length]!), policy, {
        sample: i,
      });
      onTrace(trace, performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}

async function startServerProcess(delayMs: number) {
  const child = fork(new URL("./fake-server-process.ts", import.meta.url), [SCENARIO, String(delayMs)], {
    execArgv: ["--import", "tsx"],
  });
  const ask = <T>(message?: string) =>
    new Promise<T>((resolve) => {
      child.once("message", (m) => resolve(m as T));
      if (message) child.send(message);
    });
  const { baseURL } = await ask<{ baseURL: string }>();
  return {
    baseURL,
    stats: () => ask<{ serverMs: number[] }>("stats"),
    close: () => new Promise((resolve) => child.once("exit", resolve).send("close")),
  };
}

async function overhead(delayMs: number, episodes: number, concurrency: number): Promise<BenchRow[]> {
  const server = await startServerProcess(delayMs);
  try {
    const policy = createPolicy(`openai:${server.baseURL}#fake-model`, { retries: 0 });
    await runMany(policy, 64, concurrency, () => {}); // warm-up (JIT, connections, server scripts)
    await server.stats();
    const latencies: number[] = [];
    let calls = 0;
    let rewards = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    let episodeMs = 0;
    await runMany(policy, episodes, concurrency, (trace, ms) => {
      episodeMs += ms;
      if (trace.error) throw new Error(`provider error in benchmark: ${trace.error.message}`);
      for (const { turn } of trace.turns) latencies.push(turn.latencyMs);
      calls += trace.turns.length;
      rewards += trace.score.reward;
    });
    const wall = performance.now() - started;
    const { user, system } = process.cpuUsage(cpu);
    const cpuMs = (user + system) / 1000;
    const { serverMs } = await server.stats();
    if (rewards !== episodes) throw new Error("the reference agent did not solve every episode");
    const serverMean = mean(serverMs);
    const perCall = episodeMs / calls;
    const label = delayMs > 0 ? `server delay ${delayMs} ms ± 50%` : "server answers at once";
    return [
      {
        name: `${fmt(calls, 0)} model calls at concurrency ${concurrency}, ${label}`,
        value: `${fmt(wall / 1000, 2)} s, ${fmt((calls / wall) * 1000, 0)} calls/s; server's own time ${fmt(serverMean, 2)} ms/call; load average ${fmt(loadavg()[0]!, 1)} on ${availableParallelism()} cores`,
      },
      {
        name: `harness CPU time per call (openai client, HTTP, tools, scoring), ${label}`,
        value: `${fmt(cpuMs / calls, 2)} ms`,
      },
      {
        name: `added per call: request latency − server time, ${label}`,
        value: `${fmt(mean(latencies) - serverMean, 2)} ms`,
        target: delayMs > 0 ? "≤ 5 ms" : "(CPU-bound by design)",
      },
      {
        name: `added per call: episode time (creation to score) / calls − server time, ${label}`,
        value: `${fmt(perCall - serverMean, 2)} ms`,
      },
    ];
  } finally {
    await server.close();
  }
}

async function memory(episodes: number): Promise<BenchRow[]> {
  const policy = createPolicy("policy:reference");
  await runMany(policy, 200, 16, () => {}); // warm-up
  gc();
  const before = process.memoryUsage().heapUsed;
  const traces: EpisodeTrace[] = [];
  let jsonBytes = 0;
  const started = performance.now();
  await runMany(policy, episodes, 16, (trace) => {
    traces.push(trace);
    if (traces.length % 100 === 0) jsonBytes += JSON.stringify(trace).length * 100;
  });
  const seconds = (performance.now() - started) / 1000;
  gc();
  const retained = process.memoryUsage().heapUsed - before;
  traces.length = 0;
  gc();
  const left = process.memoryUsage().heapUsed - before;
  const rss = process.resourceUsage().maxRSS / 1024;
  return [
    {
      name: `${fmt(episodes, 0)} episodes, policy:reference`,
      value: `${fmt(seconds, 1)} s (${fmt(episodes / seconds, 0)} episodes/s); peak RSS ${fmt(rss, 0)} MiB`,
    },
    {
      name: "heap growth per retained trace",
      value: `${fmt(retained / episodes / 1024, 1)} KiB (${fmt(retained / 2 ** 20, 0)} MiB for all; trace JSON ≈ ${fmt(jsonBytes / episodes / 1024, 1)} KiB)`,
    },
    {
      name: "heap growth per episode once traces are dropped (streamed)",
      value: `${fmt(left / episodes, 0)} B`,
      target: "≈ 0 (no leak)",
    },
  ];
}

export async function benchRollout(): Promise<BenchRow[]> {
  return [...(await overhead(0, 640, 64)), ...(await overhead(500, 640, 64)), ...(await memory(10_000))];
}
