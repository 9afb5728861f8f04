/**
 * The servers of the env-server benchmark: `atlas-gym serve`'s combined handler (as startGymServer
 * serves it) and its two ceilings, bare Hono POST routes on the same stack (@hono/node-server) that parse
 * the same JSON body: `/call` answers a tiny JSON object, as a do-nothing tool endpoint would; `/same`
 * answers a static copy of the exact bytes the benchmark's tool call answers (taken from one such call at
 * start), so that the bytes written are the same on both sides and only the work differs.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { type RunningGymServer, startGymServer } from "../src/server/start-gym-server.ts";
import { CALL_ARGS, SCENARIO } from "./tool-call-load.ts";

export interface EnvServers {
  gym: RunningGymServer;
  /** Origin of the bare routes: `/call` (tiny answer) and `/same` (the tool call's answer bytes). */
  bare: string;
  /** The bytes `/same` answers: a `jira_get_issue` call's answer with CALL_ARGS. */
  sameBytes: number;
  close(): Promise<void>;
}

const JSON_TYPE = { "Content-Type": "application/json" };

/** The exact answer text of one `jira_get_issue` call with CALL_ARGS on a fresh session. */
async function toolCallAnswer(gym: RunningGymServer): Promise<string> {
  const post = (path: string, body: object) =>
    gym.fetch(
      new Request(`${gym.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
  const opened = await post("/v1/sessions", { task_id: `${SCENARIO}/eval/0` });
  const { session_id } = (await opened.json()) as { session_id: string };
  const text = await (
    await post(`/v1/sessions/${session_id}/tools/jira_get_issue`, { arguments: CALL_ARGS })
  ).text();
  gym.sessions.delete(session_id);
  if (!text.startsWith('{"ok":true'))
    throw new Error(`the ceiling's tool call failed: ${text.slice(0, 200)}`);
  return text;
}

export async function startEnvServers(): Promise<EnvServers> {
  const gym = await startGymServer({ port: 0, seed: 1, maxSessions: 10_000 });
  const same = await toolCallAnswer(gym);
  const bareApp = new Hono()
    .post("/call", async (c) => c.json({ ok: true, output: JSON.stringify(await c.req.json()) }))
    .post("/same", async (c) => {
      await c.req.json();
      return c.body(same, 200, JSON_TYPE);
    });
  const bare = await new Promise<{ url: string; close: () => void }>((resolve) => {
    const server = serve({ fetch: bareApp.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) =>
      resolve({ url: `http://127.0.0.1:${info.port}`, close: () => server.close() }),
    );
  });
  return {
    gym,
    bare: bare.url,
    sameBytes: Buffer.byteLength(same),
    close: async () => {
      bare.close();
      await gym.close();
    },
  };
}
