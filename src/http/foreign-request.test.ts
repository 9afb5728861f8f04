/**
 * Servers without a token refuse what a web page could have sent them (DNS rebinding: a foreign Host;
 * cross-site writes: a foreign Origin), on every route, in each surface's shape, changing nothing, while
 * clients that are not browsers pass as before; a server with a token is not affected.
 */
import { mkdtempSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGymHandler, startGymServer } from "../server/start-gym-server.ts";
import { createViewApp } from "../view/create-view-app.ts";
import { foreignRequest } from "./foreign-request.ts";
import { startServer } from "./start-server.ts";

const EVIL = "https://evil.example";

/** foreignRequest with these headers (lower-case names). */
const judge = (method: string, headers: Record<string, string>) =>
  foreignRequest(method, (name) => headers[name]);

describe("foreignRequest", () => {
  it("passes loopback hosts and requests without Host or Origin", () => {
    for (const host of [
      "localhost",
      "localhost:8000",
      "127.0.0.1:1",
      "127.9.9.9",
      "[::1]:8000",
      "app.localhost:8000",
    ])
      expect(judge("POST", { host })).toBeNull();
    expect(judge("POST", {})).toBeNull();
    expect(judge("POST", { host: "127.0.0.1:8000", origin: "http://localhost:8000" })).toBeNull();
    expect(judge("POST", { host: "[::1]:8000", origin: "http://[::1]:8000" })).toBeNull();
    expect(judge("POST", { host: "localhost", origin: "http://127.0.0.1" })).toBeNull();
  });

  it("refuses a Host that names another machine, for reads too (DNS rebinding)", () => {
    for (const host of [
      "evil.example",
      "evil.example:8000",
      "localhost.evil.example",
      "127.0.0.1.nip.io",
      "0.0.0.0:8000",
    ])
      expect(judge("GET", { host })).toMatch(/no token.*not to/);
  });

  it("refuses a change sent from another site's page or another local port, but not a read", () => {
    for (const origin of [
      EVIL,
      "null",
      "http://127.0.0.1.evil.example",
      "not a url",
      "http://localhost:3000",
    ])
      expect(judge("POST", { host: "127.0.0.1:8000", origin })).toMatch(/web page from another site/);
    expect(judge("delete", { host: "localhost", origin: EVIL })).not.toBeNull();
    expect(judge("GET", { host: "localhost", origin: EVIL })).toBeNull();
  });

  it("refuses what a browser marks cross-site or same-site, except a page opened at the top level", () => {
    const crossSite = { host: "127.0.0.1:8000", "sec-fetch-site": "cross-site" };
    const opened = { "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };
    expect(judge("GET", { ...crossSite, "sec-fetch-mode": "no-cors" })).toMatch(/Sec-Fetch-Site: cross-site/);
    expect(judge("GET", { ...crossSite, ...opened })).toBeNull();
    expect(judge("POST", { ...crossSite, ...opened })).not.toBeNull();
    // A frame a page embeds is a navigation too, but no user asked for it.
    expect(judge("GET", { ...crossSite, "sec-fetch-mode": "navigate", "sec-fetch-dest": "iframe" })).toMatch(
      /cross-site/,
    );
    // Another port of this machine is another origin (SameSite ignores ports).
    const sameSite = { host: "127.0.0.1:8000", "sec-fetch-site": "same-site" };
    expect(judge("GET", { ...sameSite, "sec-fetch-mode": "no-cors" })).toMatch(/Sec-Fetch-Site: same-site/);
    expect(judge("GET", { ...sameSite, ...opened })).toBeNull();
    expect(judge("GET", { ...crossSite, "sec-fetch-site": "same-origin" })).toBeNull();
    expect(judge("GET", { ...crossSite, "sec-fetch-site": "none" })).toBeNull();
  });

  it("answers the host of the server's own --base-url too, and writes from its pages", () => {
    const publicUrl = "http://acme.atlassian.net:4010";
    const host = "acme.atlassian.net:4010";
    expect(foreignRequest("GET", (name) => ({ host })[name as "host"], publicUrl)).toBeNull();
    expect(foreignRequest("GET", (name) => ({ host })[name as "host"])).toMatch(/not to/);
    const write = { host, origin: "http://acme.atlassian.net:4010" };
    expect(foreignRequest("POST", (name) => write[name as keyof typeof write], publicUrl)).toBeNull();
    const evil = { host: "evil.example" };
    expect(foreignRequest("GET", (name) => evil[name as "host"], publicUrl)).toMatch(/not to/);
  });
});

/** A request as a browser would send it to a token-less server at 127.0.0.1. */
function fromPage(path: string, method: string, headers: Record<string, string>): Request {
  return new Request(`http://127.0.0.1:8000${path}`, {
    method,
    headers: { "content-type": "text/plain", ...headers },
    ...(method === "GET" ? {} : { body: JSON.stringify({ task_id: "jira-transition-v1/eval/0" }) }),
  });
}

describe("atlas-gym serve without a token", () => {
  it("refuses a foreign Host on every registered route, in each surface's shape, changing nothing", async () => {
    const handler = createGymHandler({ seed: 1 });
    const before = handler.sites.root.hash();
    const shapes = new Set<string>();
    for (const { method, path } of handler.routes) {
      const concrete = path.replace(/:\w+/g, "x").replace(/\*/g, "x");
      const res = await handler.fetch(fromPage(concrete, method, { host: "evil.example:8000" }));
      expect(res.status, `${method} ${path}`).toBe(403);
      const body = (await res.json()) as Record<string, unknown>;
      shapes.add(Object.keys(body).sort().join(","));
      expect(JSON.stringify(body)).toContain("evil.example");
    }
    // env `{error, code}`, Jira `{errorMessages, errors}`, Confluence v2 `{errors}`, v1, JSON-RPC
    expect(shapes.size).toBeGreaterThanOrEqual(4);
    expect(handler.sessions.size).toBe(0);
    expect(handler.sites.root.hash()).toBe(before);
  });

  it("refuses a cross-site write but lets the same request through from a non-browser client", async () => {
    const handler = createGymHandler({ seed: 1 });
    const refused = await handler.fetch(fromPage("/v1/sessions", "POST", { origin: EVIL }));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: "forbidden" });
    expect(handler.sessions.size).toBe(0);
    const comment = await handler.fetch(
      fromPage("/rest/api/3/issue/ENG-1/comment", "POST", { origin: EVIL, host: "127.0.0.1:8000" }),
    );
    expect(comment.status).toBe(403);
    expect(((await comment.json()) as { errorMessages: string[] }).errorMessages[0]).toMatch(/Forbidden/);
    // Even a GET can change state (it creates an isolated site): a page's no-cors GET is refused.
    const planted = await handler.fetch(
      fromPage("/s/planted/rest/api/3/myself", "GET", {
        "sec-fetch-site": "cross-site",
        "sec-fetch-mode": "no-cors",
      }),
    );
    expect(planted.status).toBe(403);
    expect(handler.sites.has("planted")).toBe(false);
    const opened = await handler.fetch(fromPage("/v1/sessions", "POST", { host: "127.0.0.1:8000" }));
    expect(opened.status).toBe(200);
    expect(handler.sessions.size).toBe(1);
  });

  it("checks the Host the client really sent over TCP, and leaves a server with a token to its token", async () => {
    const open = await startGymServer({ seed: 1, port: 0 });
    const locked = await startGymServer({ seed: 1, port: 0, token: "t0k3n" });
    try {
      expect(await statusOver(open.url, "/v1/scenarios", { host: "evil.example" })).toBe(403);
      expect(await statusOver(open.url, "/v1/scenarios", {})).toBe(200);
      const bearer = { host: "gym.internal:8000", authorization: "Bearer t0k3n" };
      expect(await statusOver(locked.url, "/v1/scenarios", bearer)).toBe(200);
    } finally {
      await open.close();
      await locked.close();
    }
  });
});

describe("the other token-less servers", () => {
  it("the bare REST facade refuses a foreign Host in the vendor's shape", async () => {
    const server = await startServer({ port: 0, seed: 1 });
    try {
      expect(await statusOver(server.url, "/rest/api/3/myself", { host: "evil.example" })).toBe(403);
      expect(await statusOver(server.url, "/rest/api/3/myself", {})).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("the view refuses a cross-site post to Play and a foreign Host", async () => {
    const root = mkdtempSync(join(tmpdir(), "view-foreign-"));
    const { app } = createViewApp({ roots: [join(root, "runs")], playOut: join(root, "play") });
    const post = await app.request(
      new Request("http://127.0.0.1:7000/play", {
        method: "POST",
        headers: { origin: EVIL, "content-type": "application/x-www-form-urlencoded" },
        body: "task=jira-transition-v1%2Feval%2F0",
      }),
    );
    expect(post.status).toBe(403);
    expect(await post.text()).toContain("Forbidden");
    const rebound = await app.request(new Request("http://x/", { headers: { host: "evil.example" } }));
    expect(rebound.status).toBe(403);
    // No page may frame it either (a framed Play could be clicked through).
    const home = await app.request("/");
    expect(home.headers.get("x-frame-options")).toBe("DENY");
    expect(home.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect((await app.request("/")).status).toBe(200);
  });
});

/** The status of a GET sent over TCP with exactly these headers (fetch would not let Host be set). */
function statusOver(base: string, path: string, headers: Record<string, string>): Promise<number> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, headers },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end();
  });
}
