/**
 * `serve --journal` killed with SIGKILL, one surface at a time (tool calls over /v1, REST on the
 * session's site, MCP over HTTP): the real binary in a child process plays a task's reference calls
 * and is killed right after the last answer. A server rebuilt from its journal has the killed one's
 * site digest (the last one journaled) and trace; restarted on the same port it scores as a server
 * that never crashed, and an MCP client carries on with its mcp-session-id without initialising again.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { recordReference } from "../src/agent/scripted/replay.ts";
import { tasksFor } from "../src/scenarios/frozen.ts";
import { findScenario } from "../src/scenarios/index.ts";
import { createGymHandler } from "../src/server/start-gym-server.ts";
import { defaultTools } from "../src/tools/catalogue.ts";
import { connectHttp } from "./mcp-support.ts";
import { restRequestFor } from "./support/rest-request.ts";
import { spawnServe } from "./support/serve-process.ts";

const TASK = "jira-transition-v1/eval/3";
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
});

async function serve(dir: string, port = 0): Promise<{ url: string; child: ChildProcess }> {
  const args = ["--seed", "1", "--port", String(port), "--journal", dir];
  const started = await spawnServe(args, (output) => output.includes("Journal:"));
  children.push(started.child);
  return started;
}

function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked by the assertions
type Json = any;
type Send = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: Json }>;

const overHttp =
  (url: string): Send =>
  async (method, path, body) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };

const reference = () => {
  const scenario = findScenario(TASK.split("/")[0]!);
  return recordReference(scenario, tasksFor(scenario, "eval", 1, Number(TASK.split("/")[2]))[0]!);
};

/** Session ids differ between servers and appear in `self` links. */
const anonymous = (value: unknown) =>
  JSON.parse(JSON.stringify(value).replace(/ses-[0-9a-f-]{36}/g, "ses-*"));

/** The score of a server that never crashed, the calls made over /v1. */
async function uncrashedScore(): Promise<Json> {
  const handler = createGymHandler({ seed: 1 });
  const send: Send = async (method, path, body) => {
    const res = await handler.fetch(
      new Request(`http://gym.test${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return { status: res.status, body: await res.json() };
  };
  const id = (await send("POST", "/v1/sessions", { task_id: TASK })).body.session_id;
  for (const c of reference().calls)
    await send("POST", `/v1/sessions/${id}/tools/${c.name}`, { arguments: c.arguments });
  return (await send("POST", `/v1/sessions/${id}/score`, { final_message: reference().final })).body;
}

/** The last state digest the killed server journaled for the session. */
function lastJournaledDigest(dir: string, id: string): string {
  const records = readFileSync(join(dir, `${id}.jsonl`), "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  return records.filter((r) => r.hash).at(-1).hash;
}

type Surface = (url: string, id: string) => Promise<(() => Promise<unknown>) | undefined>;

const SURFACES: Record<string, Surface> = {
  "tool calls over /v1": async (url, id) => {
    for (const [i, c] of reference().calls.entries()) {
      const answer = await overHttp(url)("POST", `/v1/sessions/${id}/tools/${c.name}`, {
        arguments: c.arguments,
        seq: i + 1,
      });
      expect(answer.status).toBe(200);
    }
    return undefined;
  },
  "REST on the session's site": async (url, id) => {
    const tools = defaultTools();
    for (const c of reference().calls) {
      const request = restRequestFor(tools.get(c.name)!, c.arguments as Record<string, unknown>);
      const res = await fetch(`${url}/s/${id}${request.path}`, {
        method: request.method,
        headers: request.body === undefined ? {} : { "content-type": "application/json" },
        body: request.body,
      });
      expect(res.status).toBeLessThan(300);
    }
    return undefined;
  },
  "MCP over HTTP": async (url, id) => {
    const client = await connectHttp(`${url}/mcp?session=${id}`);
    for (const c of reference().calls) {
      const result = await client.callTool({
        name: c.name,
        arguments: c.arguments as Record<string, unknown>,
      });
      expect(result.isError).toBeFalsy();
    }
    const sessionId = (client.transport as { sessionId?: string }).sessionId!;
    const protocol = (client.transport as { protocolVersion?: string }).protocolVersion ?? "2025-06-18";
    // After the restart, a request with the same mcp-session-id is answered (no initialize again).
    return async () => {
      const res = await fetch(`${url}/mcp?session=${id}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": sessionId,
          "mcp-protocol-version": protocol,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 99, method: "tools/list" }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { result: { tools: unknown[] } }).result.tools;
    };
  },
};

describe("kill -9 of serve --journal loses nothing", () => {
  it.each(Object.keys(SURFACES))("%s", async (surface) => {
    const expected = await uncrashedScore();
    expect(expected.reward).toBe(1);
    const dir = mkdtempSync(join(tmpdir(), "atlas-kill-"));
    const first = await serve(dir);
    const id = (await overHttp(first.url)("POST", "/v1/sessions", { task_id: TASK })).body.session_id;
    const carryOn = await SURFACES[surface]!(first.url, id);
    const trace = (await overHttp(first.url)("GET", `/v1/sessions/${id}/trace`)).body;
    await kill9(first.child);

    // Rebuilt from the journal (read-only here): the killed server's digest and trace.
    const rebuilt = createGymHandler({ seed: 1, journal: dir });
    expect(rebuilt.restored).toEqual({ restored: [id], failed: [] });
    expect(rebuilt.sessions.get(id).episode.site.digest()).toBe(lastJournaledDigest(dir, id));
    const rebuiltTrace = await (
      await rebuilt.fetch(new Request(`http://gym.test/v1/sessions/${id}/trace`))
    ).json();
    expect(rebuiltTrace).toEqual(trace);
    rebuilt.journal?.close();

    // Restarted on the same port: scores as a server that never crashed.
    const port = Number(new URL(first.url).port);
    const second = await serve(dir, port);
    if (carryOn) await expect(carryOn()).resolves.toBeDefined();
    const score = await overHttp(second.url)("POST", `/v1/sessions/${id}/score`, {
      final_message: reference().final,
    });
    expect(anonymous(score.body)).toEqual(anonymous(expected));
    await kill9(second.child);
  });
});
