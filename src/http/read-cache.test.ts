import { describe, expect, it } from "vitest";
import type { OperationResult } from "../sandbox/execute.ts";
import { createSite } from "../sandbox/fixtures/default-site.ts";
import { type CachedRead, createReadCache } from "./read-cache.ts";

const read = (body: unknown, ok = true): CachedRead => {
  const result: OperationResult = { ok, status: ok ? 200 : 404, body, headers: {} };
  return { input: { params: {} }, ctx: { baseUrl: "http://x", accountId: "a" }, result, answer: result };
};

describe("read cache", () => {
  it("answers a read only while the site's revision is the one it was computed at", () => {
    const cache = createReadCache();
    const site = createSite({ seed: 1 }).fork();
    const entry = read({ summary: "before" });
    cache.set(site, site.revision, "k", entry);
    const held = cache.get(site, "k")!;
    expect(held).toMatchObject(entry);
    expect(held.result).toBe(entry.result);
    expect(new TextDecoder().decode(cache.bytesOf(entry.answer))).toBe('{"summary":"before"}');
    expect(held.bytes).toBe(cache.bytesOf(entry.answer));
    expect(held.headers).toEqual({ "content-type": "application/json;charset=UTF-8" });
    site.transact((draft) => draft.tick(1));
    expect(cache.get(site, "k")).toBeUndefined();
  });

  it("does not keep a read computed before the site changed, nor a failed answer", () => {
    const cache = createReadCache();
    const site = createSite({ seed: 1 }).fork();
    const before = site.revision;
    site.tick(1);
    cache.set(site, before, "stale", read({}));
    cache.set(site, site.revision, "missing", read({ errorMessages: [] }, false));
    expect(cache.get(site, "stale")).toBeUndefined();
    expect(cache.get(site, "missing")).toBeUndefined();
  });

  it("moves the revision on every kind of change, and not on a failed transaction", () => {
    const site = createSite({ seed: 1 }).fork();
    const seen = new Set([site.revision]);
    const step = (change: () => void) => {
      change();
      expect(seen.has(site.revision)).toBe(false);
      seen.add(site.revision);
    };
    const user = [...site.values("users")][0]!;
    step(() => site.put("users", user.accountId, { ...user, displayName: "X" }));
    step(() => site.remove("users", user.accountId));
    step(() => site.nextId("issue", 1));
    step(() => site.tick(5));
    step(() => site.transact((draft) => draft.tick(5)));
    const unchanged = site.revision;
    expect(() =>
      site.transact((draft) => {
        draft.tick(5);
        throw new Error("bad input");
      }),
    ).toThrow("bad input");
    expect(site.revision).toBe(unchanged);
  });

  it("keeps sites apart and holds at most maxPerSite reads per site, dropping the oldest", () => {
    const cache = createReadCache(2);
    const a = createSite({ seed: 1 }).fork();
    const b = a.fork();
    cache.set(a, a.revision, "1", read(1));
    cache.set(a, a.revision, "2", read(2));
    cache.set(a, a.revision, "3", read(3));
    expect(cache.get(a, "1")).toBeUndefined();
    expect(cache.get(a, "2")?.answer.body).toBe(2);
    expect(cache.get(a, "3")?.answer.body).toBe(3);
    expect(cache.get(b, "3")).toBeUndefined();
  });
});
