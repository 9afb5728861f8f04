/**
 * `serve --workers 2` as real processes behind a real port: sessions spread over the workers and stay on
 * theirs (env-server calls and REST on the session's site alike), /health and the session listing cover
 * the fleet, the bearer token is each worker's to check (the router lets nothing past it), and a worker
 * killed with SIGKILL mid-session comes back from its journal with the session's score unchanged. Like a
 * single server, the fleet's router listens beyond loopback only when the workers require a token. Its
 * /health shows the workers only to a caller with the token, a watcher's `/v1/live` reaches the session's
 * worker (and lists every worker's), a percent-encoded path reaches the same worker as its plain
 * spelling, and the workers of a router killed with SIGKILL exit with it, leaving its journal to the next
 * fleet (and no other fleet can take a journal while its router runs).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { UsageError } from "../../errors.ts";
import { VERSION } from "../../version.ts";
import { isRunning } from "./journal-lock.ts";
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

  it("shows the workers on /health only to a caller with the token, as a single server shows its counts", async () => {
    const callers: Record<string, string>[] = [
      {},
      { authorization: "Bearer wrong" },
      { authorization: "Basic Zm9vOmJhcg==" },
    ];
    for (const headers of callers) {
      const open = await call("GET", "/health", undefined, headers);
      expect(open, JSON.stringify(headers)).toEqual({
        status: 200,
        body: { status: "ok", version: VERSION },
      });
    }
    const basic = `Basic ${Buffer.from(`someone@example.com:${TOKEN}`).toString("base64")}`;
    for (const headers of [AUTH, { authorization: basic }]) {
      const full = await call("GET", "/health", undefined, headers);
      expect(full.body).toMatchObject({ status: "ok", version: VERSION, sessions: 0 });
      expect(full.body.workers).toEqual([
        { worker: 0, status: "ok", sessions: 0, restarts: expect.any(Number) },
        { worker: 1, status: "ok", sessions: 0, restarts: expect.any(Number) },
      ]);
    }
  });

  it("sends a watcher's /v1/live calls on a session to its worker, and lists every worker's sessions", async () => {
    const ids = [await open(), await open()];
    expect(ids.map((id) => id.slice(0, 7)).sort()).toEqual(["ses-w0-", "ses-w1-"]);
    for (const id of ids)
      await call("POST", `/v1/sessions/${id}/tools/jira_get_issue`, {
        arguments: { issueIdOrKey: "ENG-1" },
        seq: 1,
      });
    for (const id of ids)
      for (let i = 0; i < 3; i++) {
        const live = await call("GET", `/v1/live/sessions/${id}?since=0`);
        expect(live.status, `${id} #${i}`).toBe(200);
        expect(live.body).toMatchObject({ session_id: id, calls: 1, since: 0 });
        expect(live.body.trace).toHaveLength(1);
        expect((await call("GET", `/v1/live/sessions/${id}?since=1`)).body.trace).toEqual([]);
      }
    for (let i = 0; i < 2; i++) {
      const list = await call("GET", "/v1/live/sessions");
      expect(list.status).toBe(200);
      expect(Object.keys(list.body)).toEqual(["sessions"]);
      expect(list.body.sessions.map((s: { session_id: string }) => s.session_id).sort()).toEqual(
        [...ids].sort(),
      );
    }
    const head = await fetch(`${fleet.url}/v1/live/sessions`, { method: "HEAD", headers: AUTH });
    expect(head.status).toBe(200);
    expect((await call("GET", "/v1/live/sessions", undefined, {})).status).toBe(401);
    expect((await call("GET", `/v1/live/sessions/${ids[1]}`, undefined, {})).status).toBe(401);
    for (const id of ids) await call("DELETE", `/v1/sessions/${id}`);
    expect((await call("GET", `/v1/live/sessions/${ids[1]}`)).body.code).toBe("session_not_found");
  });

  it("routes a percent-encoded path to the same worker as its plain spelling, as a single server reads it", async () => {
    const onOne = (await Promise.all([open(), open()])).find((id) => id.startsWith("ses-w1-"))!;
    const encoded = await call("GET", `/%73/${onOne}/rest/api/3/issue/ENG-1?fields=summary`);
    expect(encoded.status).toBe(200);
    expect(encoded.body.key).toBe("ENG-1");
    // An ad-hoc site spelled two ways is one site: a comment written one way is read the other.
    const comment = {
      type: "doc",
      version: 1,
      content: [{ type: "paragraph", content: [{ type: "text", text: "x" }] }],
    };
    const before = await call("GET", "/%73/adhoc-fleet/rest/api/3/issue/ENG-1/comment");
    expect(
      (await call("POST", "/s/adhoc-fleet/rest/api/3/issue/ENG-1/comment", { body: comment })).status,
    ).toBe(201);
    const after = await call("GET", "/%73/adhoc-fleet/rest/api/3/issue/ENG-1/comment");
    expect(after.body.total).toBe(before.body.total + 1);
    for (const id of (await call("GET", "/v1/sessions")).body.sessions)
      await call("DELETE", `/v1/sessions/${id.session_id}`);
  });
});

describe("a fleet's journal, and a router killed with SIGKILL", () => {
  const BIN = fileURLToPath(new URL("../../../bin/atlas-gym", import.meta.url));
  const started: ChildProcess[] = [];
  const pids: number[] = [];
  afterAll(() => {
    // Whatever a failing run left behind.
    for (const child of started)
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    for (const pid of pids) if (isRunning(pid)) process.kill(pid, "SIGKILL");
  });

  const lockOf = (journal: string) =>
    JSON.parse(readFileSync(join(journal, "fleet.lock"), "utf8")) as { router: number; workers: number[] };

  /** Starts a fleet expected to be refused; one that starts after all (the bug) is closed again. */
  async function refusedFleet(options: Parameters<typeof startFleet>[0]): Promise<Error | string> {
    return startFleet(options).then(
      async (fleet) => {
        await fleet.close();
        return "started";
      },
      (error: Error) => error,
    );
  }

  /** Polls until none of `pids` runs; false if some still do after `ms`. */
  async function allExit(ids: number[], ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (ids.some(isRunning)) {
      if (Date.now() > deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return true;
  }

  it("ends the workers with their router, and the next fleet on the journal rebuilds the sessions", async () => {
    const journal = mkdtempSync(join(tmpdir(), "atlas-fleet-orphans-"));
    try {
      // The real command, in its own process: `serve --workers 2` on a journal.
      const router = spawn(BIN, ["serve", "--workers", "2", "--port", "0", "--journal", journal], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, ATLAS_GYM_TOKEN: "" },
      });
      started.push(router);
      let output = "";
      router.stderr!.on("data", (chunk: Buffer) => (output += chunk));
      const url = await new Promise<string>((resolve, reject) => {
        router.stdout!.on("data", (chunk: Buffer) => {
          output += chunk;
          const found = /atlas-gym serving seed \d+ at (http:\/\/\S+)/.exec(output);
          if (found) resolve(found[1]!);
        });
        router.once("exit", (code) => reject(new Error(`the fleet exited (${code}):\n${output}`)));
      });
      const lock = lockOf(journal);
      expect(lock.router).toBe(router.pid);
      expect(lock.workers).toHaveLength(2);
      pids.push(...lock.workers);
      expect(lock.workers.every(isRunning)).toBe(true);
      const opened = await fetch(`${url}/v1/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
      });
      const { session_id } = (await opened.json()) as { session_id: string };

      // While its router runs, the journal is that fleet's: another is refused before starting anything.
      const second = await refusedFleet({ workers: 1, port: 0, journal, output: "ignore" });
      expect(second).toBeInstanceOf(UsageError);
      expect((second as Error).message).toContain(`in use by a running fleet (router pid ${router.pid})`);

      process.kill(router.pid!, "SIGKILL");
      expect(await allExit(lock.workers, 30_000), `workers ${lock.workers} still run:\n${output}`).toBe(true);

      // The dead fleet's journal is taken over, and its session rebuilt where its id says.
      const next = await startFleet({ workers: 2, port: 0, journal, output: "ignore" });
      try {
        expect(lockOf(journal)).toMatchObject({ router: process.pid });
        const trace = await fetch(`${next.url}/v1/sessions/${session_id}/trace`);
        expect(trace.status).toBe(200);
      } finally {
        await next.close();
      }
      expect(existsSync(join(journal, "fleet.lock")), "closing frees the journal").toBe(false);
    } finally {
      rmSync(journal, { recursive: true, force: true });
    }
  }, 120_000);

  it("takes over a dead fleet's lock only once its workers are gone, and names those still running", async () => {
    const journal = mkdtempSync(join(tmpdir(), "atlas-fleet-lock-"));
    const dead = spawn("true");
    await new Promise((resolve) => dead.once("exit", resolve));
    const stray = spawn("sleep", ["60"], { stdio: "ignore" });
    started.push(stray);
    try {
      writeFileSync(join(journal, "fleet.lock"), JSON.stringify({ router: dead.pid, workers: [stray.pid] }));
      const refused = await refusedFleet({
        workers: 1,
        port: 0,
        journal,
        takeoverWaitMs: 300,
        output: "ignore",
      });
      expect(refused).toBeInstanceOf(UsageError);
      expect((refused as Error).message).toContain(
        `still in use by worker process ${stray.pid} of a fleet whose router (pid ${dead.pid}) is gone`,
      );
      expect(readdirSync(journal), "no worker started").toEqual(["fleet.lock"]);
    } finally {
      stray.kill("SIGKILL");
      rmSync(journal, { recursive: true, force: true });
    }
  });
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
