/**
 * The servers of the REST benchmark, in their own process so that the load generator's event loop and
 * CPU time do not mix with theirs: a bare Hono hello-world route and the REST facade, on two loopback
 * ports, reported to the parent over IPC.
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

const bare = await listen(new Hono().get("/hello", (c) => c.json({ hello: "world" })).fetch);
const facade = await listen(createRestApp({ sites: createSiteRegistry(1) }).fetch);
process.send!({ bare, facade });
process.on("disconnect", () => process.exit(0));
