/**
 * The tool-call fast path in front of the env app answers exactly as the Hono route does (status,
 * headers, bytes), for good calls and for every kind of bad one, and a call it passes on still works.
 * Two sessions on the same task: one called through `atlas-gym serve`'s handler (the fast path), the
 * other through the env app alone (the Hono route), the same requests in the same order.
 */
import { describe, expect, it } from "vitest";
import { createEnvApp } from "./create-env-app.ts";
import { createGymHandler } from "./start-gym-server.ts";
import { withToolCallFastPath } from "./tool-call-fast-path.ts";

type Fetch = (request: Request) => Response | Promise<Response>;

interface Sent {
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

async function answer(fetch: Fetch, sid: string, { path, body, headers = {} }: Sent) {
  const response = await fetch(
    new Request(`http://gym.test/v1/sessions/${sid}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    }),
  );
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    replayed: response.headers.get("idempotent-replayed"),
    text: await response.text(),
  };
}

async function pair() {
  const handler = createGymHandler({ seed: 1 });
  const hono = createEnvApp({ sessions: handler.sessions });
  const open = async () => {
    const opened = await handler.fetch(
      new Request("http://gym.test/v1/sessions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
      }),
    );
    return ((await opened.json()) as { session_id: string }).session_id;
  };
  const [fast, routed] = [await open(), await open()];
  /** The same request on both sessions: [fast path's answer, Hono route's answer]. */
  const both = async (sent: Sent) => [
    await answer(handler.fetch, fast, sent),
    await answer(hono.fetch, routed, sent),
  ];
  return { handler, fast, routed, both };
}

const call = (args: unknown, extra: object = {}) => JSON.stringify({ arguments: args, ...extra });
const read = { issueIdOrKey: "ENG-1", fields: ["summary", "status"] };

describe("tool-call fast path", () => {
  it("answers good and bad calls with the route's status, headers and bytes", async () => {
    const { both, fast: fastId, routed: routedId } = await pair();
    const ids = { fast: fastId, routed: routedId };
    const cases: Sent[] = [
      { path: "/tools/jira_get_issue", body: call(read) },
      { path: "/tools/jira_get_issue", body: call(read) }, // a repeat
      { path: "/tools/jira%5Fget%5Fissue", body: call(read) }, // percent-encoded: the router decodes it
      { path: "/tools/jira_get_issue", body: call(JSON.stringify(read)) }, // arguments as JSON text
      { path: "/tools/jira_get_issue", body: call({ issueIdOrKey: "ENG-99999" }) }, // a 404 for the model
      { path: "/tools/no_such_tool", body: call({}) },
      { path: "/tools/jira_get_issue", body: call({ nope: 1 }) }, // bad tool arguments
      { path: "/tools/jira_get_issue", body: "{not json" },
      { path: "/tools/jira_get_issue", body: "" },
      { path: "/tools/jira_get_issue", body: call(read, { extra: true }) }, // unknown body key
      { path: "/tools/jira_get_issue", body: call(read, { seq: "one" }) },
      { path: "/tools/jira_get_issue", body: call(read, { seq: 0 }) },
      { path: "/tools/jira_get_issue", body: call(read, { seq: 5 }) }, // out of order: 409
      { path: "/tools/jira_get_issue", body: call(read, { seq: 1 }) },
      { path: "/tools/jira_get_issue", body: call(read, { seq: 1 }) }, // a retry: the same answer
      { path: "/tools/jira_get_issue", body: call(read), headers: { "idempotency-key": "k-1" } },
      { path: "/tools/jira_get_issue", body: call(read), headers: { "idempotency-key": "k-1" } }, // replayed
      {
        path: "/tools/jira_get_issue",
        body: call({ issueIdOrKey: "ENG-2" }),
        headers: { "idempotency-key": "k-1" },
      },
      { path: "/tools/jira_get_issue", body: call(read), headers: { "idempotency-key": "bad key" } },
      { path: "/tools/jira_get_issue", body: "x".repeat(1024 * 1024 + 1) },
      { path: "/tools/jira_get_issue", body: call(read) }, // the budget (8 calls) is spent
    ];
    const seen: { status: number; replayed: string | null; text: string }[] = [];
    for (const sent of cases) {
      const [fast, routed] = await both(sent);
      seen.push(fast!);
      // The session ids differ (a sequence conflict names its session); everything else is the same.
      expect(
        { ...fast, text: fast!.text.replaceAll(ids.fast, "S") },
        `${sent.path} ${sent.body?.slice(0, 60)}`,
      ).toEqual({
        ...routed,
        text: routed!.text.replaceAll(ids.routed, "S"),
      });
    }
    expect(seen.map((x) => x.status)).toEqual([
      ...[200, 200, 200, 200, 200, 200, 200],
      ...[400, 400, 400, 400, 400, 409, 200, 200, 200, 200, 422, 400, 413, 200],
    ]);
    expect(seen.slice(0, 4).every((x) => x.text.startsWith('{"ok":true,"output":'))).toBe(true);
    expect(seen.at(-1)!.text).toContain("budget of 8 tool calls is spent");
  });

  it("answers a plain call itself and passes on what it is not sure of", async () => {
    const { handler, fast } = await pair();
    const passed: string[] = [];
    const hono = createEnvApp({ sessions: handler.sessions });
    const fetch = withToolCallFastPath(handler.sessions, (request) => {
      passed.push(new URL(request.url).pathname);
      return hono.fetch(request);
    });
    await answer(fetch, fast, { path: "/tools/jira_get_issue", body: call(read, { seq: 1 }) });
    await answer(fetch, fast, {
      path: "/tools/jira_get_issue",
      body: call(read),
      headers: { "idempotency-key": "k" },
    });
    expect(passed).toEqual([]);
    const [bad, unknown] = [
      await answer(fetch, fast, { path: "/tools/jira_get_issue", body: "{" }),
      await answer(fetch, "ses-none", { path: "/tools/jira_get_issue", body: call(read) }),
    ];
    expect([bad.status, unknown.status]).toEqual([400, 404]);
    expect(passed).toEqual([
      `/v1/sessions/${fast}/tools/jira_get_issue`,
      "/v1/sessions/ses-none/tools/jira_get_issue",
    ]);
  });

  it("records the calls it answers on the session's trace, as the route does", async () => {
    const { handler, fast, routed, both } = await pair();
    await both({ path: "/tools/jira_get_issue", body: call(read) });
    await both({ path: "/tools/jira_get_issue", body: call({ issueIdOrKey: "ENG-2" }) });
    const trace = async (sid: string) => {
      const response = await handler.fetch(new Request(`http://gym.test/v1/sessions/${sid}/trace`));
      const { calls } = (await response.json()) as { calls: unknown[] };
      return calls;
    };
    const calls = await trace(fast);
    expect(calls).toHaveLength(2);
    expect(calls).toEqual(await trace(routed));
  });

  it("answers a session closed meanwhile, or never opened, as the route does", async () => {
    const { handler, fast, routed, both } = await pair();
    handler.sessions.delete(fast);
    handler.sessions.delete(routed);
    const [gone, goneRouted] = await both({ path: "/tools/jira_get_issue", body: call(read) });
    expect(gone!.status).toBe(404);
    expect(gone!.text.replace(fast, "S")).toBe(goneRouted!.text.replace(routed, "S"));
  });
});
