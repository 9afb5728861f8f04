import { describe, expect, it } from "vitest";
import { createEnvApp } from "./create-env-app.ts";
import { createSessionStore } from "./sessions.ts";

const TOKEN = "live-secret";

function setup() {
  let now = 1_000_000;
  const sessions = createSessionStore({ clock: () => now });
  const app = createEnvApp({ sessions, token: TOKEN });
  const auth = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
  const request = (path: string, init: RequestInit = {}) =>
    app.request(path, { ...init, headers: { ...auth, ...(init.headers ?? {}) } });
  return { sessions, request, app, advance: (ms: number) => (now += ms) };
}

describe("env server live routes", () => {
  it("list sessions and each one's calls from `since`, behind the token, without touching them", async () => {
    const { sessions, request, app, advance } = setup();
    const opened = (await (
      await request("/v1/sessions", {
        method: "POST",
        body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
      })
    ).json()) as { session_id: string };
    const sid = opened.session_id;
    await request(`/v1/sessions/${sid}/tools/jira_get_transitions`, {
      method: "POST",
      body: JSON.stringify({ arguments: { issueIdOrKey: "ENG-9" } }),
    });
    await request(`/v1/sessions/${sid}/tools/jira_get_issue`, {
      method: "POST",
      body: JSON.stringify({ arguments: {} }),
    });
    const usedAt = sessions.get(sid).lastUsed;
    advance(5000);

    expect((await app.request("/v1/live/sessions")).status).toBe(401);
    expect((await app.request(`/v1/live/sessions/${sid}`)).status).toBe(401);

    const list = (await (await request("/v1/live/sessions")).json()) as {
      sessions: Record<string, unknown>[];
    };
    expect(list.sessions).toEqual([
      expect.objectContaining({
        session_id: sid,
        task_id: "jira-transition-v1/eval/0",
        calls: 2,
        idle_seconds: 5,
      }),
    ]);
    const all = (await (await request(`/v1/live/sessions/${sid}`)).json()) as {
      trace: { i: number; name: string; ok: boolean }[];
      prompt: string;
    };
    expect(all.trace.map((c) => [c.i, c.name, c.ok])).toEqual([
      [1, "jira_get_transitions", true],
      [2, "jira_get_issue", false],
    ]);
    expect(all.prompt).toContain("To Do");
    const later = (await (await request(`/v1/live/sessions/${sid}?since=1`)).json()) as {
      trace: { i: number }[];
    };
    // since=N: the calls after number N (the last one the watcher saw).
    expect(later.trace.map((c) => c.i)).toEqual([2]);
    // Watching does not keep a session alive.
    expect(sessions.get(sid).lastUsed).toBe(usedAt);
  });

  it("answers a bad query and an unknown session in the env server's error shape", async () => {
    const { request } = setup();
    const bad = await request("/v1/live/sessions/ses-x?since=-1");
    expect(bad.status).toBe(404);
    const opened = (await (
      await request("/v1/sessions", {
        method: "POST",
        body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
      })
    ).json()) as { session_id: string };
    const res = await request(`/v1/live/sessions/${opened.session_id}?since=abc`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: expect.stringContaining("since"), code: "invalid_request" });
    expect(((await bad.json()) as { code: string }).code).toBe("session_not_found");
  });
});
