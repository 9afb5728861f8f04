/**
 * The servers of the REST benchmark, in their own process so that the load generator's event loop and
 * CPU time do not mix with theirs: the REST facade, and the ceiling: a Hono route on the same stack
 * answering a static copy of the very bytes (and headers) the facade answers for getIssue, on two
 * loopback ports, reported to the parent over IPC.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { createRestApp } from "../src/http/create-rest-app.ts";
import { createSiteRegistry } from "../src/http/site-registry.ts";

function listen(fetch: (req: Request) => Response | Promise<Response>): Promise<string> {
  return new Promise((resolve) => {
    serve({ fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) =>
      resolve(`http://127.0.0.1:${info.port}`),
    );
  });
}

const facade = await listen(createRestApp({ sites: createSiteRegistry(1) }).fetch);
const real = await fetch(`${facade}/rest/api/3/issue/ENG-1`);
const bytes = new Uint8Array(await real.arrayBuffer());
const type = real.headers.get("content-type")!;
const ceiling = await listen(
  new Hono().get("/rest/api/3/issue/ENG-1", (c) => c.body(bytes, 200, { "content-type": type })).fetch,
);
process.send!({ ceiling, facade, bytes: bytes.byteLength });
process.on("disconnect", () => process.exit(0));
