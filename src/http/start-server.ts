/** Starts the REST facade on a real port (used by `atlas-gym serve`, the real-client tests and benches). */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { AGENT_EMAIL } from "../sandbox/fixtures/default-site.ts";
import type { Credentials } from "./basic-auth.ts";
import { createRestApp, type RestAppOptions } from "./create-rest-app.ts";
import { createSiteRegistry, type SiteRegistry } from "./site-registry.ts";

export interface StartServerOptions {
  port: number;
  host?: string;
  seed: number;
  auth?: boolean;
  observe?: RestAppOptions["observe"];
}

export interface RunningServer {
  url: string;
  sites: SiteRegistry;
  credentials: Credentials | null;
  close(): Promise<void>;
}

export async function startServer({
  port,
  host = "127.0.0.1",
  seed,
  auth = false,
  observe,
}: StartServerOptions): Promise<RunningServer> {
  const sites = createSiteRegistry(seed);
  const credentials = auth ? { email: AGENT_EMAIL, apiToken: randomBytes(12).toString("hex") } : null;
  const app = createRestApp({ sites, credentials, observe });
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname: host }, (info: AddressInfo) => {
      resolve({
        url: `http://${host}:${info.port}`,
        sites,
        credentials,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
    server.once("error", reject);
  });
}
