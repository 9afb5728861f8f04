/**
 * One lock on every door: with a token, every route the server registers (read from its routers, not
 * listed by hand) refuses a request without credentials or with wrong ones, in its surface's shape, and
 * changes nothing; the same routes pass with the token as a bearer token or as a Basic API token.
 */
import { createCloudClient, isApiError } from "jira.js";
import { describe, expect, it } from "vitest";
import { isLoopback } from "../http/listen-guard.ts";
import { surfaceOf } from "./auth-gate.ts";
import { createGymHandler, startGymServer } from "./start-gym-server.ts";

const TOKEN = "s3cret-token";
const basic = (email: string, token: string) =>
  `Basic ${Buffer.from(`${email}:${token}`).toString("base64")}`;

/** A concrete URL path for a router path: parameters and wildcards filled with plausible values. */
function concrete(path: string, sessionId: string): string {
  return path
    .replace(":siteId", sessionId)
    .replace(/:sid\b/, sessionId)
    .replace(/:(\w+)/g, (_, name: string) => (/key|issue/i.test(name) ? "ENG-1" : "1"))
    .replace(/\*/g, "x");
}

async function openSession(fetch: (r: Request) => Response | Promise<Response>): Promise<string> {
  const res = await fetch(
    new Request("http://gym.test/v1/sessions", {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
    }),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { session_id: string }).session_id;
}

describe("the auth gate of atlas-gym serve", () => {
  it("refuses every registered route without credentials or with wrong ones, changing nothing", async () => {
    const handler = createGymHandler({ seed: 1, token: TOKEN });
    const sid = await openSession(handler.fetch);
    const session = handler.sessions.get(sid);
    const before = { session: session.episode.site.hash(), root: handler.sites.root.hash() };
    const routes = handler.routes;
    // The walk covers every surface: env server, REST on every API version (root and /s/<id>), MCP.
    expect(routes.length).toBeGreaterThan(100);
    for (const prefix of [
      "/v1/",
      "/rest/api/3/",
      "/rest/api/2/",
      "/wiki/api/v2/",
      "/wiki/rest/api/",
      "/s/:siteId/",
      "/mcp",
    ])
      expect(routes.some((r) => r.path.startsWith(prefix))).toBe(true);
    const refusedBy = new Map<string, number>();
    for (const { method, path } of routes) {
      const url = `http://gym.test${concrete(path, sid)}`;
      const verb = method === "ALL" ? "POST" : method;
      for (const authorization of [null, "Bearer wrong", basic("agent@example.com", "wrong")]) {
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (authorization) headers.authorization = authorization;
        const body = verb === "GET" || verb === "HEAD" ? undefined : "{}";
        const res = await handler.fetch(new Request(url, { method: verb, headers, body }));
        const where = `${verb} ${path} (${authorization ?? "no credentials"})`;
        if (path === "/health") {
          expect(res.status, where).toBe(200);
          expect(Object.keys((await res.json()) as object).sort(), where).toEqual(["status", "version"]);
          continue;
        }
        expect(res.status, where).toBe(401);
        const surface = surfaceOf(concrete(path, sid));
        refusedBy.set(surface, (refusedBy.get(surface) ?? 0) + 1);
        const answer = (await res.json()) as Record<string, unknown>;
        if (surface === "env") expect(answer.code, where).toBe("unauthorized");
        if (surface === "mcp") expect(answer.error, where).toMatchObject({ code: -32001 });
        if (surface === "rest") expect(JSON.stringify(answer), where).toContain("must be authenticated");
      }
    }
    expect([...refusedBy.keys()].sort()).toEqual(["env", "mcp", "rest"]);
    expect(session.episode.calls).toHaveLength(0);
    expect(session.episode.site.hash()).toBe(before.session);
    expect(handler.sites.root.hash()).toBe(before.root);
    expect(handler.sessions.size).toBe(1);
  });

  it("lets the token in as a bearer token or as the API token of Basic auth (any user's email)", async () => {
    const handler = createGymHandler({ seed: 1, token: TOKEN });
    const sid = await openSession(handler.fetch);
    const get = (path: string, authorization: string) =>
      handler.fetch(new Request(`http://gym.test${path}`, { headers: { authorization } }));
    expect((await get("/v1/scenarios", basic("agent@example.com", TOKEN))).status).toBe(200);
    expect((await get(`/s/${sid}/rest/api/3/issue/ENG-1`, `Bearer ${TOKEN}`)).status).toBe(200);
    const myself = await get("/rest/api/3/myself", basic("agent@example.com", TOKEN));
    expect(myself.status).toBe(200);
    expect(((await myself.json()) as { emailAddress: string }).emailAddress).toBe("agent@example.com");
    const health = await get("/health", `Bearer ${TOKEN}`);
    expect((await health.json()) as object).toHaveProperty("sessions", 1);
  });

  it("serves jira.js on a session's site with the token as its API token, and refuses a wrong one", async () => {
    const server = await startGymServer({ port: 0, seed: 1, token: TOKEN });
    try {
      const sid = await openSession((r) => fetch(r.url.replace("http://gym.test", server.url), r));
      const host = `${server.url}/s/${sid}`;
      const email = "agent@example.com";
      const jira = createCloudClient({ host, auth: { type: "basic", email, apiToken: TOKEN } });
      const issue = await jira.issues.getIssue({ issueIdOrKey: "ENG-1", fields: ["summary"] });
      expect(issue.key).toBe("ENG-1");
      const intruder = createCloudClient({ host, auth: { type: "basic", email, apiToken: "guess" } });
      const refused = await intruder.issueComments
        .addComment({ issueIdOrKey: "ENG-1", body: "hijack" })
        .catch((e: unknown) => e);
      expect(isApiError(refused) && refused.status).toBe(401);
      expect(server.sessions.get(sid).episode.calls.map((c) => c.name)).toEqual([
        "GET /rest/api/3/issue/{issueIdOrKey}",
      ]);
    } finally {
      await server.close();
    }
  });

  it("refuses to listen beyond loopback without a token", async () => {
    await expect(startGymServer({ port: 0, seed: 1, host: "0.0.0.0" })).rejects.toThrow(/without a token/);
    expect(["127.0.0.1", "127.4.0.9", "localhost", "::1", "[::1]"].every(isLoopback)).toBe(true);
    expect(["0.0.0.0", "::", "10.0.0.5", "example.com", "127.0.0.1.example.com"].some(isLoopback)).toBe(
      false,
    );
  });
});
