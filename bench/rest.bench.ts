/**
 * REST facade throughput on loopback: getIssue through the full facade vs a bare hello-world route of
 * the same framework (Hono on @hono/node-server), measured with autocannon in the same run.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import autocannon from "autocannon";
import { Hono } from "hono";
import { createRestApp } from "../src/http/create-rest-app.ts";
import { createSiteRegistry } from "../src/http/site-registry.ts";
import { type BenchRow, fmt } from "./measure.ts";

async function listen(
  fetch: (req: Request) => Response | Promise<Response>,
): Promise<{ url: string; close: () => void }> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) =>
      resolve({ url: `http://127.0.0.1:${info.port}`, close: () => server.close() }),
    );
  });
}

async function load(url: string, seconds: number): Promise<number> {
  const result = await autocannon({ url, connections: 32, duration: seconds, pipelining: 1 });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

export async function benchRest(seconds = 5): Promise<BenchRow[]> {
  const bare = new Hono().get("/hello", (c) => c.json({ hello: "world" }));
  const bareServer = await listen(bare.fetch);
  const facade = await listen(createRestApp({ sites: createSiteRegistry(1) }).fetch);
  try {
    const bareRps = await load(`${bareServer.url}/hello`, seconds);
    const facadeRps = await load(`${facade.url}/rest/api/3/issue/ENG-1`, seconds);
    const slimRps = await load(`${facade.url}/rest/api/3/issue/ENG-1?fields=summary,status`, seconds);
    return [
      { name: "bare Hono route (hello world)", value: `${fmt(bareRps, 0)} req/s` },
      {
        name: "REST getIssue, all fields",
        value: `${fmt(facadeRps, 0)} req/s (${fmt((facadeRps / bareRps) * 100, 0)}% of bare)`,
        target: "≥ 50% of bare",
      },
      {
        name: "REST getIssue, fields=summary,status",
        value: `${fmt(slimRps, 0)} req/s (${fmt((slimRps / bareRps) * 100, 0)}% of bare)`,
      },
    ];
  } finally {
    bareServer.close();
    facade.close();
  }
}
