/**
 * One lock on every door: with a token, every route the server registers (read from its routers, not
 * listed by hand) refuses a request without credentials or with wrong ones, in its surface's shape, and
 * changes nothing; the same routes pass with the token as a bearer token or as a Basic API token.
 */
import { createCloudClient, isApiError } from "jira.js";
import { describe, expect, it } from "vitest";
import { isLoopback } from "../http/listen-guard.ts";
import { sessionApiToken } from "../http/session-token.ts";
import { sessionScope } from "./session-scope.ts";
import { createGymHandler, startGymServer } from "./start-gym-server.ts";
import { surfaceOf } from "./surfaces.ts";

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

  it("refuses a write on Basic auth that a page on another origin sent, as a browser sends saved credentials", async () => {
    const handler = createGymHandler({ seed: 1, token: TOKEN });
    const sid = await openSession(handler.fetch);
    const post = (path: string, authorization: string, headers: Record<string, string> = {}) =>
      handler.fetch(
        new Request(`http://gym.test${path}`, {
          method: "POST",
          headers: { authorization, "content-type": "text/plain", ...headers },
          body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
        }),
      );
    const saved = basic("agent@example.com", TOKEN);
    for (const page of [{ origin: "http://evil.example" }, { "sec-fetch-site": "cross-site" }] as Record<
      string,
      string
    >[]) {
      const refused = await post("/v1/sessions", saved, page);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { code: string }).code).toBe("forbidden");
    }
    const comment = await handler.fetch(
      new Request(`http://gym.test/s/${sid}/rest/api/3/issue/ENG-1/comment`, {
        method: "POST",
        headers: { authorization: saved, "content-type": "application/json", origin: "http://evil.example" },
        body: JSON.stringify({ body: "from a page" }),
      }),
    );
    expect(comment.status).toBe(403);
    expect(await comment.json()).toMatchObject({
      errorMessages: [expect.stringContaining("another origin")],
    });
    expect(handler.sessions.size).toBe(1);
    expect(handler.sessions.get(sid).episode.calls).toEqual([]);
    // A bearer token is never sent unasked, and a client that is no browser sends no Origin: both pass.
    expect((await post("/v1/sessions", `Bearer ${TOKEN}`, { origin: "http://evil.example" })).status).toBe(
      200,
    );
    expect((await post("/v1/sessions", saved)).status).toBe(200);
    expect((await post("/v1/sessions", saved, { "sec-fetch-site": "same-origin" })).status).toBe(200);
  });

  it("takes the API token serve --auth prints as a bearer token too, as the env-server clients send it", async () => {
    const handler = createGymHandler({ seed: 1, auth: true, apiToken: "printed-api-token" });
    const get = (authorization: string) =>
      handler.fetch(new Request("http://gym.test/v1/scenarios", { headers: { authorization } }));
    expect((await get("Bearer printed-api-token")).status).toBe(200);
    expect((await get(basic("agent@example.com", "printed-api-token"))).status).toBe(200);
    expect((await get("Bearer guess")).status).toBe(401);
  });

  it("refuses to listen beyond loopback without a token", async () => {
    await expect(startGymServer({ port: 0, seed: 1, host: "0.0.0.0" })).rejects.toThrow(/without a token/);
    expect(["127.0.0.1", "127.4.0.9", "localhost", "::1", "[::1]"].every(isLoopback)).toBe(true);
    expect(["0.0.0.0", "::", "10.0.0.5", "example.com", "127.0.0.1.example.com"].some(isLoopback)).toBe(
      false,
    );
  });
});

/**
 * A session's API token (`rest_api_token` of its opening) is what an agent's tools get: it opens that
 * session's own site and `/mcp` bound to it, and nothing else (not the trainer's `/v1`, whose trace holds
 * the expectation; not another session, the root site, an ad-hoc site or unbound MCP).
 */
describe("a session's API token", () => {
  type Fetch = (r: Request) => Response | Promise<Response>;
  async function open(fetch: Fetch, authorization = `Bearer ${TOKEN}`) {
    const res = await fetch(
      new Request("http://gym.test/v1/sessions", {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
      }),
    );
    expect(res.status).toBe(200);
    return (await res.json()) as { session_id: string; rest_base_url: string; rest_api_token: string | null };
  }
  const call = (fetch: Fetch, path: string, authorization: string, init: RequestInit = {}) =>
    fetch(
      new Request(`http://gym.test${path}`, {
        ...init,
        headers: { authorization, "content-type": "application/json", ...(init.headers ?? {}) },
      }),
    );
  const mcpInit = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  const mcpHeaders = { accept: "application/json, text/event-stream" };

  it("is given in the opening, next to rest_base_url, derived from the token and the session id", async () => {
    const handler = createGymHandler({ seed: 1, token: TOKEN });
    const a = await open(handler.fetch);
    const b = await open(handler.fetch, basic("trainer@example.com", TOKEN));
    expect(a.rest_base_url).toBe(`http://gym.test/s/${a.session_id}`);
    expect(a.rest_api_token).toBe(sessionApiToken(TOKEN, a.session_id));
    expect(a.rest_api_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(b.rest_api_token).not.toBe(a.rest_api_token);
    expect(a.rest_api_token).not.toContain(TOKEN);
    // A replayed opening (same Idempotency-Key) carries it too.
    const keyedOpen = () =>
      handler.fetch(
        new Request("http://gym.test/v1/sessions", {
          method: "POST",
          headers: { authorization: `Bearer ${TOKEN}`, "idempotency-key": "k1" },
          body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
        }),
      );
    const first = (await (await keyedOpen()).json()) as { session_id: string; rest_api_token: string };
    const again = await keyedOpen();
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(first);
    expect(first.rest_api_token).toBe(sessionApiToken(TOKEN, first.session_id));
    // Without a token there is nothing to derive it from: null.
    const open_ = createGymHandler({ seed: 1 });
    expect((await open(open_.fetch, "Bearer anything")).rest_api_token).toBeNull();
  });

  it("opens its own site over REST (Basic with any email, and Bearer), in every API version", async () => {
    const handler = createGymHandler({ seed: 1, token: TOKEN });
    const { session_id: sid, rest_api_token } = await open(handler.fetch);
    const st = rest_api_token!;
    const myself = await call(handler.fetch, `/s/${sid}/rest/api/3/myself`, basic("agent@example.com", st));
    expect(myself.status).toBe(200);
    expect(((await myself.json()) as { emailAddress: string }).emailAddress).toBe("agent@example.com");
    expect((await call(handler.fetch, `/s/${sid}/rest/api/2/issue/ENG-1`, `Bearer ${st}`)).status).toBe(200);
    expect((await call(handler.fetch, `/s/${sid}/wiki/api/v2/spaces`, `Bearer ${st}`)).status).toBe(200);
    // The same session spelled with a percent-encoded hyphen, as the router decodes it.
    const encoded = sid.replace("-", "%2D");
    expect((await call(handler.fetch, `/s/${encoded}/rest/api/3/issue/ENG-1`, `Bearer ${st}`)).status).toBe(
      200,
    );
    const comment = await call(
      handler.fetch,
      `/s/${sid}/rest/api/2/issue/ENG-1/comment`,
      basic("a@b.c", st),
      {
        method: "POST",
        body: JSON.stringify({ body: "done" }),
      },
    );
    expect(comment.status).toBe(201);
    expect(handler.sessions.get(sid).episode.calls.length).toBeGreaterThanOrEqual(5);
  });

  it("is refused everywhere else: /v1, other sessions' sites (any spelling), the root site, ad-hoc sites, unbound MCP", async () => {
    const handler = createGymHandler({ seed: 1, token: TOKEN });
    const a = await open(handler.fetch);
    const b = await open(handler.fetch);
    const st = a.rest_api_token!;
    const before = handler.sessions.get(b.session_id).episode.site.hash();
    const refused: [string, string, RequestInit?][] = [
      ["GET", "/v1/sessions"],
      ["GET", `/v1/sessions/${a.session_id}/trace`],
      ["POST", `/v1/sessions/${a.session_id}/score`, { method: "POST", body: "{}" }],
      ["DELETE", `/v1/sessions/${a.session_id}`, { method: "DELETE" }],
      [
        "POST",
        "/v1/sessions",
        { method: "POST", body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }) },
      ],
      ["GET", `/v1/live/sessions/${a.session_id}`],
      ["GET", "/v1/scenarios"],
      ["GET", `/s/${b.session_id}/rest/api/3/issue/ENG-1`],
      ["GET", `/s/${b.session_id.replace("-", "%2D")}/rest/api/3/issue/ENG-1`],
      ["GET", `/s/${b.session_id.replace("ses", "%73%65%73")}/rest/api/3/issue/ENG-1`],
      ["GET", `/%73/${b.session_id}/rest/api/3/issue/ENG-1`],
      ["POST", `/s/${b.session_id}/rest/api/3/issue/ENG-1/comment`, { method: "POST", body: '{"body":"x"}' }],
      ["GET", "/rest/api/3/myself"],
      ["GET", "/wiki/api/v2/spaces"],
      ["GET", "/s/my-sandbox/rest/api/3/myself"],
      ["POST", "/mcp", { method: "POST", body: mcpInit, headers: mcpHeaders }],
      ["POST", `/mcp?session=${b.session_id}`, { method: "POST", body: mcpInit, headers: mcpHeaders }],
      [
        "POST",
        `/mcp?session=${b.session_id}&session=${a.session_id}`,
        { method: "POST", body: mcpInit, headers: mcpHeaders },
      ],
    ];
    for (const [, path, init] of refused)
      for (const authorization of [`Bearer ${st}`, basic("agent@example.com", st)]) {
        const res = await call(handler.fetch, path, authorization, init);
        expect(res.status, `${path} ${authorization}`).toBe(401);
      }
    expect(handler.sessions.size).toBe(2);
    expect(handler.sessions.get(b.session_id).episode.calls).toHaveLength(0);
    expect(handler.sessions.get(b.session_id).episode.site.hash()).toBe(before);
    // The server's token keeps working everywhere.
    for (const path of [
      "/v1/sessions",
      `/v1/sessions/${a.session_id}/trace`,
      `/s/${b.session_id}/rest/api/3/myself`,
      "/rest/api/3/myself",
    ])
      expect((await call(handler.fetch, path, `Bearer ${TOKEN}`)).status, path).toBe(200);
    const trace = await call(handler.fetch, `/v1/sessions/${a.session_id}/trace`, basic("t@e.com", TOKEN));
    expect((await trace.json()) as object).toHaveProperty("expectation");
  });

  it("opens /mcp bound to its own session", async () => {
    const handler = createGymHandler({ seed: 1, token: TOKEN });
    const { session_id: sid, rest_api_token } = await open(handler.fetch);
    const res = await call(handler.fetch, `/mcp?session=${sid}`, `Bearer ${rest_api_token}`, {
      method: "POST",
      body: mcpInit,
      headers: mcpHeaders,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeTruthy();
    // Another env session's MCP session (its id learned somehow) is not reached under this one's scope.
    const other = await open(handler.fetch);
    const theirs = await call(handler.fetch, `/mcp?session=${other.session_id}`, `Bearer ${TOKEN}`, {
      method: "POST",
      body: mcpInit,
      headers: mcpHeaders,
    });
    const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const headers = { ...mcpHeaders, "mcp-session-id": theirs.headers.get("mcp-session-id")! };
    const across = await call(handler.fetch, `/mcp?session=${sid}`, `Bearer ${rest_api_token}`, {
      method: "POST",
      body: list,
      headers: { ...headers, "mcp-protocol-version": "2025-03-26" },
    });
    expect(across.status).toBe(404);
    await handler.mcp.close();
  });

  it("is scoped from the request as the server routes it", () => {
    const scope = (path: string) => sessionScope(new Request(`http://gym.test${path}`));
    expect(scope("/s/ses-1/rest/api/3/myself")).toBe("ses-1");
    expect(scope("/s/ses%2D1/rest/api/3/myself")).toBe("ses-1");
    expect(scope("/%73/ses-1")).toBe("ses-1");
    expect(scope("/s/ses-1%2F..%2Fses-2/rest")).toBe("ses-1%2F..%2Fses-2");
    expect(scope("/mcp?tools=rovo&session=ses-1")).toBe("ses-1");
    expect(scope("/mcp")).toBeNull();
    expect(scope("/mcp?session=")).toBeNull();
    expect(scope("/v1/sessions/ses-1/trace")).toBeNull();
    expect(scope("/s/sandbox/rest/api/3/myself")).toBeNull();
    expect(scope("/rest/api/3/myself")).toBeNull();
    expect(scope("/health")).toBeNull();
  });

  it("serves jira.js on its own site, and only there", async () => {
    const server = await startGymServer({ port: 0, seed: 1, token: TOKEN });
    try {
      const opened = await open((r) => fetch(r.url.replace("http://gym.test", server.url), r));
      const other = await open((r) => fetch(r.url.replace("http://gym.test", server.url), r));
      const auth = { type: "basic" as const, email: "agent@example.com", apiToken: opened.rest_api_token! };
      expect(opened.rest_base_url.startsWith(server.url)).toBe(true);
      const jira = createCloudClient({ host: opened.rest_base_url, auth });
      expect((await jira.issues.getIssue({ issueIdOrKey: "ENG-1", fields: ["summary"] })).key).toBe("ENG-1");
      const elsewhere = createCloudClient({ host: `${server.url}/s/${other.session_id}`, auth });
      const refused = await elsewhere.issues.getIssue({ issueIdOrKey: "ENG-1" }).catch((e: unknown) => e);
      expect(isApiError(refused) && refused.status).toBe(401);
      const trace = await fetch(`${server.url}/v1/sessions/${opened.session_id}/trace`, {
        headers: { authorization: `Bearer ${opened.rest_api_token}` },
      });
      expect(trace.status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
