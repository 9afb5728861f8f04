/**
 * `serve --workers 2` as real processes behind a real port: sessions spread over the workers and stay on
 * theirs (env-server calls and REST on the session's site alike), /health and the session listing cover
 * the fleet, the bearer token is each worker's to check (the router lets nothing past it), and a worker
 * killed with SIGKILL mid-session comes back from its journal with the session's score unchanged. Like a
 * single server, the fleet's router listens beyond loopback only when the workers require a token.
 */
import { mkdtempSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { UsageError } from "../../errors.ts";
import { type RunningFleet, startFleet } from "./start-fleet.ts";

const TOKEN = "fleet-secret";
const AUTH = { authorization: `Bearer ${TOKEN}` };
let fleet: RunningFleet;

beforeAll(async () => {
  fleet = await startFleet({ workers: 2, port: 0, env: { ATLAS_GYM_TOKEN: TOKEN }, output: "ignore" });
}, 60_000);
afterAll(() => fleet?.close());

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = AUTH) {
  const response = await fetch(`${fleet.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the test reads loose JSON answers
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const open = async (task = "jira-transition-v1/eval/0") =>
  (await call("POST", "/v1/sessions", { task_id: task })).body.session_id as string;

describe("serve --workers 2", () => {
  it("spreads sessions over the workers and keeps every call, REST included, on the session's own", async () => {
    const ids = [await open(), await open(), await open(), await open()];
    expect(ids.map((id) => id.slice(0, 7)).sort()).toEqual(["ses-w0-", "ses-w0-", "ses-w1-", "ses-w1-"]);
    for (const id of ids) {
      const tool = await call("POST", `/v1/sessions/${id}/tools/jira_get_issue`, {
        arguments: { issueIdOrKey: "ENG-1" },
        seq: 1,
      });
      expect(tool.body.ok).toBe(true);
      const rest = await call("GET", `/s/${id}/rest/api/3/issue/ENG-1?fields=summary`);
      expect(rest.status).toBe(200);
      // Links name the router's address, not the worker's.
      expect(rest.body.self).toBe(`${fleet.url}/s/${id}/rest/api/3/issue/10000`);
      expect((await call("GET", `/v1/sessions/${id}/trace`)).body.calls).toHaveLength(2);
    }
    const health = await call("GET", "/health");
    expect(health.body).toMatchObject({ status: "ok", sessions: 4 });
    expect(health.body.workers.map((w: { sessions: number }) => w.sessions)).toEqual([2, 2]);
    const listing = await call("GET", "/v1/sessions");
    expect(listing.body.sessions.map((s: { session_id: string }) => s.session_id).sort()).toEqual(
      [...ids].sort(),
    );
    for (const id of ids) expect((await call("DELETE", `/v1/sessions/${id}`)).body.closed).toBe(true);
    expect((await call("GET", "/v1/sessions")).body.sessions).toEqual([]);
  });

  it("leaves the bearer token to the workers: without it, no /v1 route answers through the router", async () => {
    const id = await open();
    for (const [method, path] of [
      ["GET", "/v1/sessions"],
      ["POST", "/v1/sessions"],
      ["GET", "/v1/scenarios"],
      ["POST", `/v1/sessions/${id}/score`],
      ["GET", `/v1/sessions/${id}/trace`],
      ["DELETE", `/v1/sessions/${id}`],
    ] as const) {
      const answer = await call(method, path, method === "POST" ? {} : undefined, {
        authorization: "Bearer wrong",
      });
      expect(answer.status, `${method} ${path}`).toBe(401);
    }
    expect((await call("GET", `/v1/sessions/${id}/trace`)).body.calls).toEqual([]);
    await call("DELETE", `/v1/sessions/${id}`);
  });

  it("answers an unknown session as a server does, and refuses a bad body without touching anything", async () => {
    const gone = await call("POST", "/v1/sessions/ses-w1-00000000-0000-0000-0000-000000000000/score", {});
    expect(gone).toMatchObject({ status: 404, body: { code: "session_not_found" } });
    const bad = await call("POST", "/v1/sessions", { task_id: 7 });
    expect(bad.status).toBe(400);
    expect((await call("GET", "/health")).body.sessions).toBe(0);
  });

  it("restarts a worker killed mid-session, which rebuilds its sessions: the score is as without the fault", async () => {
    const steps = [
      ["jira_get_transitions", { issueIdOrKey: "ENG-1" }],
      ["jira_transition_issue", { issueIdOrKey: "ENG-1", transition: { id: "31" } }],
    ] as const;
    const run = async (id: string, crash: boolean) => {
      let seq = 0;
      for (const [name, args] of steps) {
        if (crash && seq === 1) {
          const worker = fleet.workers[1]!;
          const back = worker.nextRestart();
          process.kill(worker.pid, "SIGKILL");
          // Sent while the worker is down: the router holds it until the worker is back.
          const held = call("POST", `/v1/sessions/${id}/tools/${name}`, { arguments: args, seq: ++seq });
          await back;
          expect((await held).status).toBe(200);
          continue;
        }
        expect(
          (await call("POST", `/v1/sessions/${id}/tools/${name}`, { arguments: args, seq: ++seq })).status,
        ).toBe(200);
      }
      return (await call("POST", `/v1/sessions/${id}/score`, { final_message: "Done." })).body;
    };
    const ids = [await open(), await open()];
    const onOne = ids.find((id) => id.startsWith("ses-w1-"))!;
    const onZero = ids.find((id) => id.startsWith("ses-w0-"))!;
    const faulted = await run(onOne, true);
    const clean = await run(onZero, false);
    expect(fleet.workers[1]!.restarts).toBe(1);
    expect(faulted).toEqual(clean);
    expect((await call("GET", `/v1/sessions/${onOne}/trace`)).body.calls).toHaveLength(2);
    const health = await call("GET", "/health");
    expect(health.body.workers[1]).toMatchObject({ status: "ok", restarts: 1, sessions: 1 });
    for (const id of ids) await call("DELETE", `/v1/sessions/${id}`);
  }, 60_000);
});

describe("serve --workers beyond loopback", () => {
  afterEach(() => vi.unstubAllEnvs());

  /** A port nothing listens on, on any interface, right now. */
  async function freeEverywhere(port = 0): Promise<number | null> {
    const probe = createServer();
    return new Promise((resolve) => {
      probe.once("error", () => resolve(null));
      probe.listen(port, "0.0.0.0", () => {
        const taken = (probe.address() as { port: number }).port;
        probe.close(() => resolve(taken));
      });
    });
  }

  it("refuses without a token before starting a worker or listening, as a single server does", async () => {
    vi.stubEnv("ATLAS_GYM_TOKEN", ""); // what the workers would inherit: no token either
    for (const host of ["0.0.0.0", "::", "0", "", "10.0.0.5"]) {
      const port = (await freeEverywhere())!;
      const journal = mkdtempSync(join(tmpdir(), "atlas-fleet-refused-"));
      // One that starts after all (the bug) is closed again, so a failing run leaves no worker behind.
      const outcome = await startFleet({ workers: 1, port, host, journal, output: "ignore" }).then(
        async (started) => {
          await started.close();
          return `started at ${started.url}`;
        },
        (error: Error) => error,
      );
      expect(outcome, JSON.stringify(host)).toBeInstanceOf(UsageError);
      expect((outcome as Error).message).toMatch(
        /^refusing to listen on \S+ without a token: anyone who can reach the port could change training episodes\. Pass --token \(or ATLAS_GYM_TOKEN\), or listen on 127\.0\.0\.1\.$/,
      );
      expect(readdirSync(journal), "no worker journal: no worker started").toEqual([]);
      expect(await freeEverywhere(port), "the port is still free").toBe(port);
    }
  });

  it("starts there with a token, which every worker then requires", async () => {
    const open = await startFleet({ workers: 1, port: 0, host: "0.0.0.0", token: "T", output: "ignore" });
    try {
      expect(open.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
      const local = open.url.replace("0.0.0.0", "127.0.0.1");
      const post = (headers: Record<string, string>) =>
        fetch(`${local}/v1/sessions`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
        });
      expect((await post({})).status).toBe(401);
      const opened = await post({ authorization: "Bearer T" });
      expect(opened.status).toBe(200);
      const { session_id } = (await opened.json()) as { session_id: string };
      expect(
        (
          await fetch(`${local}/v1/sessions/${session_id}`, {
            method: "DELETE",
            headers: { authorization: "Bearer T" },
          })
        ).status,
      ).toBe(200);
    } finally {
      await open.close();
    }
  }, 60_000);
});
