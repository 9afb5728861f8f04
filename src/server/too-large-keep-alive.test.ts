/**
 * A 413 over a real socket: answered before the rest of its body is read, with `Connection: close`, so
 * a keep-alive client (node's http.Agent, as jira.js and the harness use) sends its next request on a
 * fresh connection instead of on one the server is about to drop: REST on a session's site, a tool call
 * and MCP over HTTP alike.
 */
import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningGymServer, startGymServer } from "./start-gym-server.ts";

let server: RunningGymServer;
let sid: string;
beforeAll(async () => {
  server = await startGymServer({ port: 0, seed: 1 });
  const opened = await fetch(`${server.url}/v1/sessions`, {
    method: "POST",
    body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
  });
  sid = ((await opened.json()) as { session_id: string }).session_id;
});
afterAll(() => server.close());

/** Sends on `agent`; `big`: a chunked body over 1 MiB (no Content-Length). */
function send(agent: Agent, method: string, path: string, big: boolean) {
  return new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
    const { port } = new URL(server.url);
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const req = request({ agent, host: "127.0.0.1", port, method, path, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    });
    req.on("error", reject);
    if (!big) return void req.end();
    req.write('{"body":"');
    for (let i = 0; i < 18; i++) req.write("x".repeat(64 * 1024));
    req.end('"}');
  });
}

describe("a body over the limit on a kept-alive connection", () => {
  for (const [surface, path] of [
    ["REST on a session's site", () => `/s/${sid}/rest/api/2/issue/ENG-1/comment`],
    ["a tool call", () => `/v1/sessions/${sid}/tools/jira_get_issue`],
    ["MCP over HTTP", () => "/mcp"],
  ] as const)
    it(`is answered 413 with Connection: close, and the next request gets through (${surface})`, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const refused = await send(agent, "POST", path(), true);
      expect(refused).toEqual({ status: 413, connection: "close" });
      await new Promise((done) => setTimeout(done, 700)); // past the moment the server drops the socket
      expect(
        (await send(agent, "GET", `/s/${sid}/rest/api/3/issue/ENG-1?fields=summary`, false)).status,
      ).toBe(200);
      agent.destroy();
    });
});
