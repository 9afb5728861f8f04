/**
 * The servers of the REST benchmark: the REST facade (reads cached, as served), the facade computing
 * every answer (cache off), and the ceiling: one Hono app on the same stack whose routes answer static
 * copies of the very bytes (and content type) the facade answers for each measured request.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createRestApp } from "../src/http/create-rest-app.ts";
import { createSiteRegistry } from "../src/http/site-registry.ts";

/** The measured requests: name and path (with query) on the facade. */
export const REST_CASES = [
  { name: "getIssue, all fields", path: "/rest/api/3/issue/ENG-1" },
  { name: "getIssue, fields=summary,status", path: "/rest/api/3/issue/ENG-1?fields=summary,status" },
  {
    name: "search JQL, 50 results (summary, status, assignee, priority)",
    path: `/rest/api/3/search/jql?jql=${encodeURIComponent("project in (ENG, OPS, MOB, WEB) ORDER BY key")}&maxResults=50&fields=summary,status,assignee,priority`,
  },
  { name: "Confluence getPageById, storage body", path: "/wiki/api/v2/pages/3014661?body-format=storage" },
] as const;

export interface RestServers {
  facade: string;
  uncached: string;
  ceiling: string;
  /** Per case: the ceiling's path for it and the size of its body. */
  cases: { name: string; path: string; ceilingPath: string; bytes: number }[];
  close(): void;
}

function listen(fetch: (req: Request) => Response | Promise<Response>) {
  return new Promise<{ url: string; close: () => void }>((resolve) => {
    const server = serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) =>
      resolve({ url: `http://127.0.0.1:${info.port}`, close: () => server.close() }),
    );
  });
}

export async function startRestServers(): Promise<RestServers> {
  const facade = await listen(createRestApp({ sites: createSiteRegistry(1) }).fetch);
  const uncached = await listen(createRestApp({ sites: createSiteRegistry(1), cacheReads: false }).fetch);
  const ceilingApp = new Hono();
  const cases: RestServers["cases"] = [];
  for (const [i, { name, path }] of REST_CASES.entries()) {
    const real = await fetch(`${facade.url}${path}`);
    if (real.status !== 200) throw new Error(`${path} answered ${real.status}`);
    const bytes = new Uint8Array(await real.arrayBuffer());
    const type = real.headers.get("content-type")!;
    const ceilingPath = `/static/${i}`;
    ceilingApp.get(ceilingPath, (c) => c.body(bytes, 200, { "content-type": type }));
    cases.push({ name, path, ceilingPath, bytes: bytes.byteLength });
  }
  const ceiling = await listen(ceilingApp.fetch);
  return {
    facade: facade.url,
    uncached: uncached.url,
    ceiling: ceiling.url,
    cases,
    close() {
      for (const server of [facade, uncached, ceiling]) server.close();
    },
  };
}
