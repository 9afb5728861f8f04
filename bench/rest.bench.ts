/**
 * REST facade throughput on loopback, as ratios within one run: each measured request (bench/rest-servers.ts)
 * through the facade against its ceiling, a route of the same framework (Hono on @hono/node-server)
 * on the same path, sent the same request and answering a static copy of the same bytes. Twice: with the servers in a child process (the load
 * generator's CPU time apart from theirs; there the server's CPU time per request is measured too) and
 * in this process beside autocannon; and, in the child process, the facade with its read cache off
 * (every answer computed), to show what the cache saves. Each round runs ceiling and facade back to back
 * (the order alternating); the figure is the median over rounds of the ratio within a round, which the
 * load of the moment on a shared machine moves far less than any absolute rate. Beside it, the same
 * ratio by CPU time per request (the ceiling's over the facade's: the server process's CPU when it runs
 * apart, this whole process's, load generator included, when they share it), steadier still when other
 * jobs take the cores.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { type BenchRow, cpuOf, fmt, median } from "./measure.ts";
import { type RestServers, startRestServers } from "./rest-servers.ts";

const CONNECTIONS = 32;
const ROUNDS = 5;

type Servers = Omit<RestServers, "close">;
type Variant = "ceiling" | "facade" | "uncached";

interface Sample {
  rps: number;
  /** CPU µs per request: the server's (child process), or this process's (servers in it). */
  cpuPerRequest: number;
}

/** CPU time (µs) so far of the servers' process: the child, or this one. */
const cpuNow = async (child: ChildProcess | null) => {
  if (child) return cpuOf(child);
  const { user, system } = process.cpuUsage();
  return user + system;
};

async function load(url: string, seconds: number, child: ChildProcess | null): Promise<Sample> {
  const before = await cpuNow(child);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, pipelining: 1 });
  const after = await cpuNow(child);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, cpuPerRequest: (after - before) / result.requests.total };
}

async function inChildProcess(): Promise<{ servers: Servers; child: ChildProcess }> {
  const child = fork(fileURLToPath(new URL("./rest-server-process.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
  });
  const servers = await new Promise<Servers>((resolve) => child.once("message", resolve as never));
  return { servers, child };
}

interface CaseFigures {
  ceiling: number;
  /**
   * Per variant: median ratio to the ceiling by rate and by CPU per request (the ceiling's over the
   * variant's), median rate, median CPU µs per request.
   */
  of: Partial<Record<Variant, { ratio: number; cpuRatio: number; rps: number; cpu: number }>>;
  ceilingCpu: number;
}

async function measure(servers: Servers, variants: Variant[], seconds: number, child: ChildProcess | null) {
  const empty = () => ({ ceiling: [], facade: [], uncached: [] });
  const samples = servers.cases.map((): Record<Variant, Sample[]> => empty());
  const ratios = servers.cases.map((): Record<Variant, number[]> => empty());
  const cpuRatios = servers.cases.map((): Record<Variant, number[]> => empty());
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, c] of servers.cases.entries()) {
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      const got = {} as Record<Variant, Sample>;
      for (const variant of order) {
        const url = variant === "ceiling" ? `${c.ceiling}${c.path}` : `${servers[variant]}${c.path}`;
        got[variant] = await load(url, seconds, child);
        samples[i]![variant].push(got[variant]);
      }
      for (const variant of variants) {
        if (variant === "ceiling") continue;
        ratios[i]![variant].push(got[variant].rps / got.ceiling.rps);
        cpuRatios[i]![variant].push(got.ceiling.cpuPerRequest / got[variant].cpuPerRequest);
      }
    }
  }
  return servers.cases.map((_, i): CaseFigures => {
    const cpu = (v: Variant) => median(samples[i]![v].map((s) => s.cpuPerRequest));
    const of: CaseFigures["of"] = {};
    for (const v of variants)
      if (v !== "ceiling")
        of[v] = {
          ratio: median(ratios[i]![v]),
          cpuRatio: median(cpuRatios[i]![v]),
          rps: median(samples[i]![v].map((s) => s.rps)),
          cpu: cpu(v),
        };
    return { ceiling: median(samples[i]!.ceiling.map((s) => s.rps)), ceilingCpu: cpu("ceiling"), of };
  });
}

const pct = (ratio: number) => `${fmt(ratio * 100, 0)}%`;
const us = (cpu: number) => `; server CPU ${fmt(cpu, 1)} µs/request`;
const targetFor = (i: number) => (i < 2 ? "≥ 90% of its ceiling" : "≥ 80% of its ceiling");

export async function benchRest(seconds = 1.5): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const apart = await inChildProcess();
  try {
    const figures = await measure(apart.servers, ["ceiling", "facade", "uncached"], seconds, apart.child);
    for (const [i, c] of apart.servers.cases.entries()) {
      const { ceiling, ceilingCpu, of } = figures[i]!;
      const kb = `${fmt(c.bytes / 1024)} KB`;
      rows.push(
        {
          name: `${c.name} (${kb}): ceiling, static bytes on the same Hono stack, load from another process`,
          value: `${fmt(ceiling, 0)} req/s${us(ceilingCpu)}`,
        },
        {
          name: `${c.name}: REST facade, load from another process`,
          value: `${pct(of.facade!.ratio)} of its ceiling (${fmt(of.facade!.rps, 0)} req/s${us(of.facade!.cpu)}; by CPU ${pct(of.facade!.cpuRatio)})`,
          target: targetFor(i),
        },
        {
          name: `${c.name}: REST facade with the read cache off, load from another process`,
          value: `${pct(of.uncached!.ratio)} of its ceiling (${fmt(of.uncached!.rps, 0)} req/s${us(of.uncached!.cpu)})`,
        },
      );
    }
  } finally {
    apart.child.disconnect();
  }
  const together = await startRestServers();
  try {
    const figures = await measure(together, ["ceiling", "facade"], seconds, null);
    for (const [i, c] of together.cases.entries()) {
      const { ceiling, ceilingCpu, of } = figures[i]!;
      rows.push({
        name: `${c.name}: REST facade, load in the same process`,
        value: `${pct(of.facade!.ratio)} of its ceiling (${fmt(of.facade!.rps, 0)} vs ${fmt(ceiling, 0)} req/s; by CPU ${pct(of.facade!.cpuRatio)}, ${fmt(of.facade!.cpu, 1)} vs ${fmt(ceilingCpu, 1)} µs/request in this process)`,
        target: targetFor(i),
      });
    }
  } finally {
    together.close();
  }
  return rows;
}
