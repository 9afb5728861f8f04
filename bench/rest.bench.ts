/**
 * REST facade throughput on loopback, as ratios within one run: each measured request (bench/rest-servers.ts)
 * through the facade against its ceiling, a route of the same framework (Hono on @hono/node-server)
 * answering a static copy of the same bytes. Twice: with the servers in a child process (the load
 * generator's CPU time apart from theirs) and in this process beside autocannon; and, in the child
 * process, the facade with its read cache off (every answer computed), to show what the cache saves.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { type BenchRow, fmt } from "./measure.ts";
import { type RestServers, startRestServers } from "./rest-servers.ts";

const CONNECTIONS = 32;
const ROUNDS = 3;

async function load(url: string, seconds: number): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

async function inChildProcess(): Promise<{ servers: Omit<RestServers, "close">; close: () => void }> {
  const child = fork(fileURLToPath(new URL("./rest-server-process.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
  });
  const servers = await new Promise<Omit<RestServers, "close">>((resolve) => child.once("message", resolve));
  return { servers, close: () => child.disconnect() };
}

type Variant = "ceiling" | "facade" | "uncached";

/** Best rate per case and variant over interleaved rounds (the load of the moment moves all alike). */
async function measure(servers: Omit<RestServers, "close">, variants: Variant[], seconds: number) {
  const best = servers.cases.map(() => ({ ceiling: 0, facade: 0, uncached: 0 }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, c] of servers.cases.entries()) {
      for (const variant of variants) {
        const url =
          variant === "ceiling" ? `${servers.ceiling}${c.ceilingPath}` : `${servers[variant]}${c.path}`;
        best[i]![variant] = Math.max(best[i]![variant], await load(url, seconds));
      }
    }
  }
  return best;
}

export async function benchRest(seconds = 2): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const apart = await inChildProcess();
  try {
    const best = await measure(apart.servers, ["ceiling", "facade", "uncached"], seconds);
    for (const [i, c] of apart.servers.cases.entries()) {
      const { ceiling, facade, uncached } = best[i]!;
      const target = i < 2 ? "≥ 90% of its ceiling" : "≥ 80% of its ceiling";
      const pct = (rps: number) => `${fmt(rps, 0)} req/s (${fmt((rps / ceiling) * 100, 0)}% of ceiling)`;
      const kb = `${fmt(c.bytes / 1024)} KB`;
      rows.push(
        {
          name: `${c.name} (${kb}): ceiling, static bytes on the same Hono stack`,
          value: `${fmt(ceiling, 0)} req/s`,
        },
        { name: `${c.name}: REST facade, load from another process`, value: pct(facade), target },
        { name: `${c.name}: REST facade, read cache off`, value: pct(uncached) },
      );
    }
  } finally {
    apart.close();
  }
  const together = await startRestServers();
  try {
    const best = await measure(together, ["ceiling", "facade"], seconds);
    for (const [i, c] of together.cases.entries()) {
      const { ceiling, facade } = best[i]!;
      rows.push({
        name: `${c.name}: REST facade, load in the same process`,
        value: `${fmt(facade, 0)} req/s (${fmt((facade / ceiling) * 100, 0)}% of its ceiling, ${fmt(ceiling, 0)} req/s)`,
        target: i < 2 ? "≥ 90% of its ceiling" : "≥ 80% of its ceiling",
      });
    }
  } finally {
    together.close();
  }
  return rows;
}
