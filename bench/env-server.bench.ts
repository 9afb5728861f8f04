/**
 * Env-server benchmarks on loopback, as ratios within one run: tool calls per second with 256 sessions
 * called at once (each session used up to its call budget, then replaced; opening is not timed) against
 * two bare Hono POST routes taking the same JSON body from the same client (env-servers.ts: one answers a
 * tiny object, one the tool call's own bytes, the ceiling the target is read against), with p50/p99
 * latency. Calls repeat one read per session (ENG-1, as the first version of this bench did), or read a
 * different issue each in groups of 8 sessions per task (as a GRPO group: the group shares what one of
 * them computed), or a different issue each on a task of their own (every answer computed); see
 * tool-call-load.ts's `Mix`; the repeated read is also sent as the Python client sends every call, with
 * `seq` and an Idempotency-Key. Five rounds run bare and env back to back, the
 * order alternating; a figure is the median over rounds of the ratio within a round (with the spread),
 * once with the servers in a child process (whose CPU time per call is measured too) and once in this
 * process. Last, heap per idle session, for sessions sharing their task's pristine site and all-distinct.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startEnvServers } from "./env-servers.ts";
import { type BenchRow, cpuOf, fmt, gc, median } from "./measure.ts";
import {
  CALL_ARGS,
  client,
  type Load,
  type Mix,
  percentile,
  postRounds,
  SCENARIO,
  toolCallRounds,
} from "./tool-call-load.ts";

const CONCURRENCY = 256;
const ROUNDS = 5;
const CALL = JSON.stringify({ arguments: CALL_ARGS });

/**
 * `bare`: the tiny-answer route; `same`: the route answering the tool call's own bytes (env-servers.ts);
 * a `Mix` of tool calls; `keyed`: the repeated read with `seq` and an Idempotency-Key on every call, as the
 * Python client (and so TRL and the verl loop) sends them, read against `sameKeyed`, the same-bytes
 * route sent those same larger requests.
 */
type Variant = "bare" | "same" | Mix | "keyed" | "sameKeyed";
const VARIANTS: Variant[] = ["bare", "same", "repeat", "group", "fresh", "keyed", "sameKeyed"];
const BARE: readonly Variant[] = ["bare", "same", "sameKeyed"];

interface Sample {
  load: Load;
  cpu: number | null;
}

async function measure(urls: { gym: string; bare: string }, seconds: number, child: ChildProcess | null) {
  const post = client(urls.gym, CONCURRENCY);
  const postBare = client(urls.bare, CONCURRENCY);
  const run = async (variant: Variant, ms: number): Promise<Sample> => {
    const cpu = child ? () => cpuOf(child) : undefined;
    if (!BARE.includes(variant)) {
      const [mix, keyed] = variant === "keyed" ? ["repeat" as const, true] : [variant as Mix, false];
      const load = await toolCallRounds(post, CONCURRENCY, ms, mix, cpu, keyed);
      return { load, cpu: cpu ? load.cpuUs / load.calls : null };
    }
    const before = cpu ? await cpu() : 0;
    const path = variant === "bare" ? "/call" : "/same";
    const load = await postRounds(postBare, path, CALL, CONCURRENCY, ms, variant === "sameKeyed");
    return { load, cpu: cpu ? ((await cpu()) - before) / load.calls : null };
  };
  for (const variant of VARIANTS) await run(variant, 300); // warm-up
  const samples = Object.fromEntries(VARIANTS.map((v) => [v, [] as Sample[]])) as Record<Variant, Sample[]>;
  for (let round = 0; round < ROUNDS; round++)
    for (const variant of round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse())
      samples[variant].push(await run(variant, seconds * 1000));
  const ratios = (v: Variant, of: Variant) =>
    samples[v].map((s, i) => s.load.perSecond / samples[of][i]!.load.perSecond);
  return { samples, ratios };
}

const ms = (v: number) => `${fmt(v, 1)} ms`;
const pct = (r: number) => `${fmt(r * 100, 0)}%`;

function rowsOf(figures: Awaited<ReturnType<typeof measure>>, where: string, sameBytes: number): BenchRow[] {
  const { samples, ratios } = figures;
  const describe = (v: Variant) => {
    const s = samples[v];
    const rate = median(s.map((x) => x.load.perSecond));
    const all = s.flatMap((x) => x.load.latencies).sort((a, b) => a - b);
    const cpu = s[0]!.cpu === null ? "" : `; server CPU ${fmt(median(s.map((x) => x.cpu!)), 0)} µs/call`;
    return `${fmt(rate, 0)} /s (p50 ${ms(percentile(all, 0.5))}, p99 ${ms(percentile(all, 0.99))}${cpu})`;
  };
  const ratioOf = (v: Variant, of: Variant, label: string) => {
    const r = ratios(v, of);
    return `${pct(median(r))} of ${label} (rounds ${pct(Math.min(...r))}–${pct(Math.max(...r))})`;
  };
  // Both ceilings, the same-bytes one first: the target is read against it, as the REST targets are read
  // against static routes answering their own bytes (writing the answer is not work a tool call can skip).
  const ratio = (v: Variant) =>
    `${ratioOf(v, "same", "same-bytes")}, ${ratioOf(v, "bare", "tiny-body bare")}; ${describe(v)}`;
  return [
    {
      name: `bare Hono POST route (tiny answer), ${CONCURRENCY} concurrent, ${where}`,
      value: describe("bare"),
    },
    {
      name: `bare Hono POST route answering the tool call's bytes (${fmt(sameBytes, 0)} B), ${CONCURRENCY} concurrent, ${where}`,
      value: `${ratioOf("same", "bare", "tiny-body bare")}; ${describe("same")}`,
    },
    {
      name: `tool calls (jira_get_issue ENG-1 repeated), ${CONCURRENCY} concurrent sessions, ${where}`,
      value: ratio("repeat"),
      target: "≥ 90% of same-bytes",
    },
    {
      name: `tool calls (jira_get_issue, a different issue each call, groups of 8 sessions per task), ${CONCURRENCY} concurrent sessions, ${where}`,
      value: ratio("group"),
      target: "≥ 90% of same-bytes",
    },
    {
      name: `tool calls (jira_get_issue, a different issue each call, every session its own task: all computed), ${CONCURRENCY} concurrent sessions, ${where}`,
      value: ratio("fresh"),
      target: "≥ 90% of same-bytes",
    },
    {
      name: `tool calls (jira_get_issue ENG-1 repeated, each with seq and an Idempotency-Key as the Python client sends them), ${CONCURRENCY} concurrent sessions, ${where}`,
      value: `${ratioOf("keyed", "sameKeyed", "same-bytes sent the same keyed requests")}, ${ratioOf("keyed", "same", "same-bytes")}; ${describe("keyed")}`,
      target: "≥ 90% of same-bytes (keyed)",
    },
  ];
}

export async function benchEnvServer(seconds = 1.5): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const child = fork(fileURLToPath(new URL("./env-server-process.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
  });
  try {
    const urls = await new Promise<{ gym: string; bare: string; sameBytes: number }>((resolve) =>
      child.once("message", resolve as never),
    );
    rows.push(...rowsOf(await measure(urls, seconds, child), "load from another process", urls.sameBytes));
  } finally {
    child.disconnect();
  }
  const servers = await startEnvServers();
  try {
    rows.push(
      ...rowsOf(
        await measure({ gym: servers.gym.url, bare: servers.bare }, seconds, null),
        "load in the same process",
        servers.sameBytes,
      ),
    );
    const post = client(servers.gym.url, CONCURRENCY);
    const heapPerSession = async (taskFor: (i: number) => object) => {
      gc();
      const before = process.memoryUsage().heapUsed;
      const ids: string[] = [];
      for (let i = 0; i < 1000; i++)
        ids.push(
          JSON.parse((await post("POST", "/v1/sessions", JSON.stringify(taskFor(i)))).text).session_id,
        );
      gc();
      const perSession = (process.memoryUsage().heapUsed - before) / 1000;
      for (const id of ids) servers.gym.sessions.delete(id);
      return perSession;
    };
    const grouped = await heapPerSession((i) => ({
      task_id: `${SCENARIO}/train/${60_000 + Math.floor(i / 8)}`,
    }));
    const distinct = await heapPerSession((i) => ({ task_id: `${SCENARIO}/train/${50_000 + i}` }));
    rows.push(
      { name: "heap per idle session, groups of 8 on one task", value: `${fmt(grouped / 1024, 1)} KB` },
      { name: "heap per idle session, all tasks distinct", value: `${fmt(distinct / 1024, 1)} KB` },
    );
  } finally {
    await servers.close();
  }
  return rows;
}
