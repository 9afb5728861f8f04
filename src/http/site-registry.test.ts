import { describe, expect, it } from "vitest";
import { fakeClock } from "../../test/support/fake-clock.ts";
import { createRestApp } from "./create-rest-app.ts";
import { createSiteRegistry, SiteCapacityError } from "./site-registry.ts";

const myself = (id: string) => `http://sim.test/s/${id}/rest/api/3/myself`;

describe("isolated sites are bounded", () => {
  it("evicts a site idle past the TTL, and only then", () => {
    const time = fakeClock();
    const sites = createSiteRegistry(1, { ttlMs: 60_000, maxSites: 10, clock: time.now });
    const first = sites.use("a", (site) => site);
    time.advance(59_999);
    expect(sites.reap()).toEqual([]);
    expect(sites.use("a", (site) => site)).toBe(first);
    time.advance(60_000);
    expect(sites.reap()).toEqual(["a"]);
    expect(sites.size).toBe(0);
    expect(sites.use("a", (site) => site)).not.toBe(first);
  });

  it("never evicts a site while a request runs on it, however long", async () => {
    const time = fakeClock();
    const sites = createSiteRegistry(1, { ttlMs: 1000, maxSites: 1, clock: time.now });
    let finish!: () => void;
    const running = sites.use("busy", () => new Promise<void>((resolve) => (finish = resolve)));
    time.advance(10_000);
    expect(sites.reap()).toEqual([]);
    expect(() => sites.use("other", (site) => site)).toThrow(SiteCapacityError);
    finish();
    await running;
    expect(sites.reap()).toEqual([]);
    time.advance(1000);
    expect(sites.reap()).toEqual(["busy"]);
  });

  it("answers 429 with Retry-After when full, evicting idle sites first", async () => {
    const time = fakeClock();
    const sites = createSiteRegistry(1, { ttlMs: 60_000, maxSites: 2, clock: time.now });
    const app = createRestApp({ sites });
    expect((await app.request(myself("one"))).status).toBe(200);
    time.advance(20_000);
    expect((await app.request(myself("two"))).status).toBe(200);
    time.advance(10_000);
    const full = await app.request(myself("three"));
    expect(full.status).toBe(429);
    expect(full.headers.get("retry-after")).toBe("30");
    expect(((await full.json()) as { errorMessages: string[] }).errorMessages[0]).toMatch(
      /Too many isolated sites \(the limit is 2/,
    );
    expect(sites.has("three")).toBe(false);
    // Sites already held keep working while the server is full.
    expect((await app.request(myself("two"))).status).toBe(200);
    time.advance(30_000);
    expect((await app.request(myself("three"))).status).toBe(200);
    expect([sites.has("one"), sites.has("two"), sites.has("three")]).toEqual([false, true, true]);
  });

  it("DELETE /s/<id> forgets an isolated site, but not a bound one", async () => {
    const sites = createSiteRegistry(1);
    const app = createRestApp({ sites });
    await app.request(myself("mine"));
    expect(sites.has("mine")).toBe(true);
    expect((await app.request("http://sim.test/s/mine", { method: "DELETE" })).status).toBe(204);
    expect(sites.has("mine")).toBe(false);
    const again = await app.request("http://sim.test/s/mine", { method: "DELETE" });
    expect(again.status).toBe(404);
    expect(((await again.json()) as { errorMessages: string[] }).errorMessages[0]).toContain(
      "No isolated site mine",
    );
    sites.set("ses-1", sites.root.fork());
    const bound = await app.request("http://sim.test/s/ses-1", { method: "DELETE" });
    expect(bound.status).toBe(409);
    expect(sites.has("ses-1")).toBe(true);
  });

  it("does not hold a site for a request that fails authentication", async () => {
    const sites = createSiteRegistry(1);
    const app = createRestApp({ sites, credentials: { email: "a@b.c", apiToken: "t" } });
    expect((await app.request(myself("anon"))).status).toBe(401);
    expect(sites.size).toBe(0);
  });
});
