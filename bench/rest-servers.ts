/**
 * The servers of the REST benchmark: the REST facade (reads cached, as served), the facade computing
 * every answer (cache off), and per measured request its ceiling: a Hono app on the same stack with one
 * static route on that request's path, answering a copy of the very bytes (and content type) the facade
 * answers for it. The ceiling is sent the very same request (path and query): what node and the stack
 * spend parsing a long URL (a JQL query) is then spent on both sides.
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
  /** Per case: the origin of its ceiling (sent the same path and query) and the size of its body. */
  cases: { name: string; path: string; ceiling: string; bytes: number }[];
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
  const servers = [facade, uncached];
  const cases: RestServers["cases"] = [];
  for (const { name, path } of REST_CASES) {
    const real = await fetch(`${facade.url}${path}`);
    if (real.status !== 200) throw new Error(`${path} answered ${real.status}`);
    const bytes = new Uint8Array(await real.arrayBuffer());
    const type = real.headers.get("content-type")!;
    const ceilingApp = new Hono();
    ceilingApp.get(path.split("?")[0]!, (c) => c.body(bytes, 200, { "content-type": type }));
    const ceiling = await listen(ceilingApp.fetch);
    servers.push(ceiling);
    cases.push({ name, path, ceiling: ceiling.url, bytes: bytes.byteLength });
  }
  return {
    facade: facade.url,
    uncached: uncached.url,
    cases,
    close() {
      for (const server of servers) server.close();
    },
  };
}
