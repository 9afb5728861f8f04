/**
 * The view with a token: the token's cookie opens it in the browser, but a write a page on another origin
 * sends with that cookie (another port of the same host is "same-site", so SameSite=Strict sends it) is
 * refused; the redirect that drops `?token=` stays on this host.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { crossOriginWrite } from "../http/foreign-request.ts";
import { createViewApp } from "./create-view-app.ts";

const TOKEN = "view-token-123";

function viewApp() {
  const root = mkdtempSync(join(tmpdir(), "view-token-"));
  return createViewApp({ roots: [join(root, "runs")], playOut: join(root, "play"), token: TOKEN }).app;
}

/** The cookie the view sets for `?token=`. */
async function cookieOf(app: ReturnType<typeof viewApp>): Promise<string> {
  const res = await app.request(`http://127.0.0.1:4520/?token=${TOKEN}`);
  expect(res.status).toBe(303);
  return res.headers.get("set-cookie")!.split(";")[0]!;
}

const playPost = (cookie: string, headers: Record<string, string>) =>
  new Request("http://127.0.0.1:4520/play", {
    method: "POST",
    headers: {
      cookie,
      host: "127.0.0.1:4520",
      "content-type": "application/x-www-form-urlencoded",
      ...headers,
    },
    body: "scenario=jira-transition-v1&split=eval&index=0",
  });

describe("atlas-gym view --token", () => {
  it("refuses a write another origin's page sends with the cookie, and lets its own pages write", async () => {
    const app = viewApp();
    const cookie = await cookieOf(app);
    const otherPort = await app.request(
      playPost(cookie, { origin: "http://127.0.0.1:8877", "sec-fetch-site": "same-site" }),
    );
    expect(otherPort.status).toBe(403);
    expect(await otherPort.text()).toContain("another origin");
    const own = await app.request(
      playPost(cookie, { origin: "http://127.0.0.1:4520", "sec-fetch-site": "same-origin" }),
    );
    expect(own.status).toBe(303);
    // A client holding the token itself is not a page: it writes from anywhere.
    const bearer = await app.request(
      new Request("http://127.0.0.1:4520/play", {
        method: "POST",
        headers: {
          authorization: `Bearer ${TOKEN}`,
          origin: "http://elsewhere.example",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "scenario=jira-transition-v1&split=eval&index=0",
      }),
    );
    expect(bearer.status).toBe(303);
  });

  it("redirects ?token= to a path on this host, never to another", async () => {
    const app = viewApp();
    const res = await app.request(`http://127.0.0.1:4520//evil.example/x?token=${TOKEN}&a=1`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/evil.example/x?a=1");
  });

  it("crossOriginWrite: reads pass; writes pass from their own origin or without browser headers", () => {
    const judge = (method: string, headers: Record<string, string>) =>
      crossOriginWrite(method, (name) => headers[name]);
    expect(judge("GET", { origin: "http://evil.example", "sec-fetch-site": "cross-site" })).toBeNull();
    expect(judge("POST", {})).toBeNull();
    expect(judge("POST", { host: "view.lan:80", origin: "http://view.lan" })).toBeNull();
    expect(judge("POST", { host: "view.lan:4520", origin: "http://view.lan:4520" })).toBeNull();
    expect(judge("POST", { host: "view.lan:4520", origin: "http://view.lan:4521" })).toMatch(
      /another origin/,
    );
    expect(judge("POST", { "sec-fetch-site": "same-site" })).toMatch(/Sec-Fetch-Site: same-site/);
    // Behind a TLS proxy the Host names no port: the page's own origin names none either.
    expect(judge("POST", { host: "view.example", origin: "https://view.example" })).toBeNull();
    expect(judge("POST", { host: "view.example", origin: "https://view.example:8443" })).toMatch(
      /another origin/,
    );
    expect(judge("POST", { host: "view.example", origin: "https://evil.example" })).toMatch(/another origin/);
  });
});
