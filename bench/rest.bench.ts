/**
 * REST facade throughput on loopback: getIssue through the full facade vs its ceiling, a route of the
 * same framework (Hono on @hono/node-server) answering a static copy of the same getIssue bytes, both
 * served from one child process and loaded with autocannon from this one, in the same run.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { type BenchRow, fmt } from "./measure.ts";

async function load(url: string, seconds: number): Promise<number> {
  const result = await autocannon({ url, connections: 32, duration: seconds, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

export async function benchRest(seconds = 3): Promise<BenchRow[]> {
  const child = fork(fileURLToPath(new URL("./rest-server-process.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
  });
  const urls = await new Promise<{ ceiling: string; facade: string; bytes: number }>((resolve) =>
    child.once("message", resolve),
  );
  try {
    // Interleaved rounds, best of each: on a shared machine the load of the moment moves all three alike.
    const best = { ceiling: 0, facade: 0, slim: 0 };
    for (let round = 0; round < 3; round++) {
      best.ceiling = Math.max(best.ceiling, await load(`${urls.ceiling}/rest/api/3/issue/ENG-1`, seconds));
      best.facade = Math.max(best.facade, await load(`${urls.facade}/rest/api/3/issue/ENG-1`, seconds));
      best.slim = Math.max(
        best.slim,
        await load(`${urls.facade}/rest/api/3/issue/ENG-1?fields=summary,status`, seconds),
      );
    }
    const { ceiling: ceilingRps, facade: facadeRps, slim: slimRps } = best;
    const pct = (rps: number) => `${fmt(rps, 0)} req/s (${fmt((rps / ceilingRps) * 100, 0)}% of ceiling)`;
    const kb = `${fmt(urls.bytes / 1024)} KB`;
    return [
      {
        name: `ceiling: static getIssue bytes (${kb}) on the same Hono stack`,
        value: `${fmt(ceilingRps, 0)} req/s`,
      },
      { name: `REST getIssue, all fields (${kb} body)`, value: pct(facadeRps), target: "≥ 50% of ceiling" },
      { name: "REST getIssue, fields=summary,status", value: pct(slimRps) },
    ];
  } finally {
    child.disconnect();
  }
}
