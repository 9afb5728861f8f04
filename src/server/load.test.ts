/**
 * The env server under many clients on loopback: 1,000 sessions opened concurrently, a few calls on
 * each, all closed; and a client process killed mid-episode, whose session the TTL reaper removes
 * without a trace (no session, no bound site, its REST path answers 404).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { Agent } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeClock } from "../../test/support/fake-clock.ts";
import { agentApi, api } from "../../test/support/json-api.ts";
import { SCENARIOS } from "../scenarios/index.ts";
import { type RunningGymServer, startGymServer } from "./start-gym-server.ts";

const clock = fakeClock();
let server: RunningGymServer;

beforeAll(async () => {
  server = await startGymServer({
    port: 0,
    seed: 1,
    sessionTtlMs: 120_000,
    maxSessions: 1000,
    clock: clock.now,
  });
});
afterAll(() => server.close());

describe("env server load", () => {
  it("holds 1,000 concurrent sessions from 20 clients, a few calls each, then closes them all", async () => {
    const scenarios = SCENARIOS.slice(0, 3).map((s) => s.id);
    const clients = Array.from({ length: 20 }, () =>
      agentApi(new Agent({ keepAlive: true, maxSockets: 8 }), server.url),
    );
    const client = (i: number) => clients[i % clients.length]!;
    const opened = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        client(i)("POST", "/v1/sessions", { task_id: `${scenarios[i % scenarios.length]}/eval/${i % 12}` }),
      ),
    );
    expect(opened.every((r) => r.status === 200)).toBe(true);
    const ids = opened.map((r) => r.body.session_id as string);
    expect(new Set(ids).size).toBe(1000);
    expect(server.sessions.size).toBe(1000);
    // One more is refused while all 1,000 are fresh.
    const extra = await client(0)("POST", "/v1/sessions", { task_id: `${scenarios[0]}/eval/0` });
    expect(extra.status).toBe(429);

    const results = await Promise.all(
      opened.map(async ({ body }, i) => {
        const call = client(i);
        const sid = body.session_id as string;
        const name = body.tools[0].function.name as string;
        const bogus = await call("POST", `/v1/sessions/${sid}/tools/${name}`, { arguments: "{" });
        const unknown = await call("POST", `/v1/sessions/${sid}/tools/nope`, { arguments: {} });
        const score = await call("POST", `/v1/sessions/${sid}/score`, {});
        return [bogus.body.error_type, unknown.body.error_type, score.body.violations[0]?.code];
      }),
    );
    for (const result of results)
      expect(result).toEqual(["invalid_args", "unknown_tool", expect.any(String)]);
    expect(ids.every((sid) => server.sessions.get(sid).episode.calls.length === 2)).toBe(true);

    const closed = await Promise.all(ids.map((sid, i) => client(i)("DELETE", `/v1/sessions/${sid}`)));
    expect(closed.every((r) => r.status === 200)).toBe(true);
    expect(server.sessions.size).toBe(0);
    expect(ids.some((sid) => server.sites.has(sid))).toBe(false);
  });

  it("leaves nothing behind after the TTL when a client is killed mid-episode", async () => {
    const client = `
      const url = process.argv[1];
      const open = await fetch(url + "/v1/sessions", { method: "POST", body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }) });
      const { session_id } = await open.json();
      await fetch(url + "/v1/sessions/" + session_id + "/tools/jira_get_issue", {
        method: "POST", body: JSON.stringify({ arguments: { issueIdOrKey: "ENG-1" } }) });
      console.log(session_id);
      setInterval(() => {}, 1000); // mid-episode: never scores, never deletes
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", client, server.url], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const [line] = (await once(child.stdout!, "data")) as [Buffer];
    const sid = line.toString().trim();
    child.kill("SIGKILL");
    await once(child, "exit");

    expect(server.sessions.find(sid)?.episode.calls).toHaveLength(1);
    expect(server.sites.has(sid)).toBe(true);
    clock.advance(119_000);
    expect(server.sessions.reap()).toEqual([]);
    clock.advance(1_000);
    expect(server.sessions.reap()).toEqual([sid]);
    expect(server.sessions.size).toBe(0);
    expect(server.sites.has(sid)).toBe(false);
    expect((await api(server.url, "GET", `/v1/sessions/${sid}/trace`)).status).toBe(404);
    expect((await api(server.url, "GET", `/s/${sid}/rest/api/3/issue/ENG-1`)).status).toBe(404);
  });
});
