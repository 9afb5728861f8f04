/**
 * The servers of the env-server benchmark: `atlas-gym serve`'s combined handler (as startGymServer
 * serves it) and its ceiling, a bare Hono POST route on the same stack (@hono/node-server) that parses
 * the same JSON body and answers a JSON object, as a do-nothing tool endpoint would.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { type RunningGymServer, startGymServer } from "../src/server/start-gym-server.ts";

export interface EnvServers {
  gym: RunningGymServer;
  bare: string;
  close(): Promise<void>;
}

export async function startEnvServers(): Promise<EnvServers> {
  const bareApp = new Hono().post("/call", async (c) =>
    c.json({ ok: true, output: JSON.stringify(await c.req.json()) }),
  );
  const bare = await new Promise<{ url: string; close: () => void }>((resolve) => {
    const server = serve({ fetch: bareApp.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) =>
      resolve({ url: `http://127.0.0.1:${info.port}`, close: () => server.close() }),
    );
  });
  const gym = await startGymServer({ port: 0, seed: 1, maxSessions: 10_000 });
  return {
    gym,
    bare: bare.url,
    close: async () => {
      bare.close();
      await gym.close();
    },
  };
}
