/**
 * The env fleet (`serve --workers N`, src/server/fleet/) on loopback: tool calls per second through the
 * fleet's one port with 1, 2 and 4 workers (64 sessions called at once, each up to its budget; opening
 * not timed), as ratios to 1 worker within this run; and the routing hop's added latency, one call at
 * a time on a 1-worker fleet, through the router against the same worker called directly (median and
 * p99 of each, rounds alternating the order). Workers are real `atlas-gym serve` processes, each with
 * its journal, as the fleet runs them. With 2 cores, little gain is expected past 2 workers.
 */
import { startFleet } from "../src/server/fleet/start-fleet.ts";
import { type BenchRow, fmt, median } from "./measure.ts";
import { client, percentile, toolCallRounds } from "./tool-call-load.ts";

const LANES = 64;
const SIZES = [1, 2, 4];
const ROUNDS = 2;

async function withFleet<T>(
  workers: number,
  fn: (fleet: Awaited<ReturnType<typeof startFleet>>) => Promise<T>,
) {
  const fleet = await startFleet({ workers, port: 0, output: "ignore", args: ["--max-sessions", "10000"] });
  try {
    return await fn(fleet);
  } finally {
    await fleet.close();
  }
}

export async function benchFleet(seconds = 2): Promise<BenchRow[]> {
  const rates = new Map<number, number[]>();
  for (const size of SIZES) {
    rates.set(
      size,
      await withFleet(size, async (fleet) => {
        const send = client(fleet.url, LANES);
        await toolCallRounds(send, LANES, 300); // warm-up
        const got: number[] = [];
        for (let round = 0; round < ROUNDS; round++)
          got.push((await toolCallRounds(send, LANES, seconds * 1000)).perSecond);
        return got;
      }),
    );
  }
  const hop = await withFleet(1, async (fleet) => {
    const routed = client(fleet.url, 1);
    const direct = client(fleet.workers[0]!.url, 1);
    await toolCallRounds(routed, 1, 200);
    await toolCallRounds(direct, 1, 200);
    const all = { routed: [] as number[], direct: [] as number[] };
    for (let round = 0; round < 4; round++)
      for (const way of round % 2 === 0 ? (["direct", "routed"] as const) : (["routed", "direct"] as const))
        all[way].push(...(await toolCallRounds(way === "routed" ? routed : direct, 1, 500)).latencies);
    for (const list of Object.values(all)) list.sort((a, b) => a - b);
    return all;
  });
  const one = median(rates.get(1)!);
  const ms = (v: number) => `${fmt(v, 2)} ms`;
  const p = (list: number[]) => `p50 ${ms(percentile(list, 0.5))}, p99 ${ms(percentile(list, 0.99))}`;
  return [
    ...SIZES.map((size) => {
      const r = rates.get(size)!;
      return {
        name: `tool calls through the fleet, ${size} worker${size > 1 ? "s" : ""}, ${LANES} concurrent sessions`,
        value: `${fmt(median(r), 0)} calls/s (${fmt((median(r) / one) * 100, 0)}% of 1 worker; rounds ${r.map((x) => fmt(x, 0)).join(", ")})`,
      };
    }),
    { name: "one call at a time, direct to the worker", value: p(hop.direct) },
    {
      name: "one call at a time, through the fleet's router (the hop's added latency)",
      value: `${p(hop.routed)} (+${ms(percentile(hop.routed, 0.5) - percentile(hop.direct, 0.5))} at p50, +${ms(percentile(hop.routed, 0.99) - percentile(hop.direct, 0.99))} at p99)`,
    },
  ];
}
