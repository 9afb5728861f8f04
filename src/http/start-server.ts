/**
 * Starts the REST facade on a real port (used by the real-client tests and benches; `atlas-gym serve`
 * serves it together with the env server, see src/server/start-gym-server.ts), and the shared
 * `listen` helper both use.
 */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { getPath } from "hono/utils/url";
import { AGENT_EMAIL } from "../sandbox/fixtures/default-site.ts";
import type { Credentials } from "./basic-auth.ts";
import { createRestApp, type RestAppOptions } from "./create-rest-app.ts";
import { vendorErrorResponse } from "./dialect.ts";
import { refuseForeignRequests, refusePageSentBasicWrites } from "./foreign-request.ts";
import { refuseOpenListen } from "./listen-guard.ts";
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

export interface Listening {
  url: string;
  close(): Promise<void>;
}

/** Serves a fetch handler on host:port (port 0: a free port) until closed. */
export function listen(
  fetch: (request: Request) => Response | Promise<Response>,
  port: number,
  host = "127.0.0.1",
): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname: host }, (info: AddressInfo) => {
      const shown = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${info.port}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
    server.once("error", reject);
  });
}

/** Basic-auth credentials for `--auth`: the agent's email and the given API token or a fresh random one. */
export function createCredentials(auth: boolean, apiToken?: string): Credentials | null {
  return auth ? { email: AGENT_EMAIL, apiToken: apiToken ?? randomBytes(12).toString("hex") } : null;
}

export async function startServer({
  port,
  host = "127.0.0.1",
  seed,
  auth = false,
  observe,
}: StartServerOptions): Promise<RunningServer> {
  const credentials = createCredentials(auth);
  refuseOpenListen({ host, token: credentials?.apiToken, exposes: "change its sites", tokenFlag: "auth" });
  const sites = createSiteRegistry(seed);
  const app = createRestApp({ sites, credentials, observe });
  // With --auth the app checks the credentials (and refuses a page's writes on saved Basic credentials);
  // without, a web page's requests are still refused.
  const refuse = (request: Request, message: string) => vendorErrorResponse(getPath(request), 403, message);
  const fetch = credentials
    ? refusePageSentBasicWrites(app.fetch, refuse)
    : refuseForeignRequests(app.fetch, refuse);
  const server = await listen(fetch, port, host);
  return { url: server.url, sites, credentials, close: server.close };
}
