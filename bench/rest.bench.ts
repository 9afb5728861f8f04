/**
 * REST facade throughput on loopback: getIssue through the full facade vs a bare hello-world route of
 * the same framework (Hono on @hono/node-server), both served from one child process and loaded with
 * autocannon from this one, in the same run.
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

export async function benchRest(seconds = 5): Promise<BenchRow[]> {
  const child = fork(fileURLToPath(new URL("./rest-server-process.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
  });
  const urls = await new Promise<{ bare: string; facade: string }>((resolve) =>
    child.once("message", resolve),
  );
  try {
    const bareRps = await load(`${urls.bare}/hello`, seconds);
    const facadeRps = await load(`${urls.facade}/rest/api/3/issue/ENG-1`, seconds);
    const slimRps = await load(`${urls.facade}/rest/api/3/issue/ENG-1?fields=summary,status`, seconds);
    const pct = (rps: number) => `${fmt(rps, 0)} req/s (${fmt((rps / bareRps) * 100, 0)}% of bare)`;
    return [
      { name: "bare Hono route (hello world)", value: `${fmt(bareRps, 0)} req/s` },
      { name: "REST getIssue, all fields (~6 KB body)", value: pct(facadeRps), target: "≥ 50% of bare" },
      { name: "REST getIssue, fields=summary,status", value: pct(slimRps) },
    ];
  } finally {
    child.disconnect();
  }
}
