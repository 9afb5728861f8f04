import { describe, expect, it } from "vitest";
import { fakeClock } from "../../test/support/fake-clock.ts";
import { createEpisode } from "../env/episode.ts";
import { createSiteRegistry } from "../http/site-registry.ts";
import { tasksFor } from "../scenarios/frozen.ts";
import { findScenario } from "../scenarios/index.ts";
import { SessionCapacityError, SessionNotFoundError } from "./errors.ts";
import { createSessionStore } from "./sessions.ts";

const scenario = findScenario("jira-transition-v1");
const [task] = tasksFor(scenario, "eval", 1);
const open = () => createEpisode(scenario, task!);

const tick = () => new Promise((resolve) => setImmediate(resolve));

function ids() {
  let n = 0;
  return () => `ses-${++n}`;
}

describe("session store", () => {
  it("opens, finds, touches and deletes sessions, binding their sites for REST", () => {
    const sites = createSiteRegistry(1);
    const store = createSessionStore({ sites, newId: ids() });
    const session = store.create(open);
    expect(session.id).toBe("ses-1");
    expect(store.get("ses-1")).toBe(session);
    expect(sites.has("ses-1")).toBe(true);
    expect(sites.use("ses-1", (site) => site)).toBe(session.episode.site);
    expect(store.touch("ses-1")).toBe(true);
    expect(store.delete("ses-1")).toBe(true);
    expect(store.delete("ses-1")).toBe(false);
    expect(store.touch("ses-1")).toBe(false);
    expect(sites.has("ses-1")).toBe(false);
    expect(session.closed).toBe(true);
    expect(() => store.get("ses-1")).toThrow(SessionNotFoundError);
    expect(() => store.get("ses-1")).toThrow(/may have been reaped .* or the server restarted/);
  });

  it("reaps only sessions idle past the TTL, and never one with a call pending", async () => {
    const clock = fakeClock();
    const closed: string[] = [];
    const store = createSessionStore({ ttlMs: 60_000, clock: clock.now, newId: ids() });
    store.onClose((s, reason) => closed.push(`${s.id}:${reason}`));
    const a = store.create(open);
    clock.advance(30_000);
    const b = store.create(open);
    clock.advance(30_000);
    expect(store.reap()).toEqual([a.id]);
    expect(closed).toEqual(["ses-1:reaped"]);

    let release!: () => void;
    const busy = b.run(() => new Promise<void>((resolve) => (release = resolve)));
    await tick();
    clock.advance(120_000);
    expect(store.reap()).toEqual([]);
    release();
    await busy;
    expect(store.reap()).toEqual([]); // the call just finished: it counts as use
    clock.advance(60_000);
    expect(store.reap()).toEqual([b.id]);
    expect(store.size).toBe(0);
  });

  it("serialises calls on one session but not across sessions", async () => {
    const store = createSessionStore({ newId: ids() });
    const a = store.create(open);
    const b = store.create(open);
    const log: string[] = [];
    const gate = (name: string, ms: number) => () =>
      new Promise<void>((resolve) => {
        log.push(`start ${name}`);
        setTimeout(() => {
          log.push(`end ${name}`);
          resolve();
        }, ms);
      });
    await Promise.all([a.run(gate("a1", 20)), a.run(gate("a2", 1)), b.run(gate("b1", 1))]);
    expect(log.indexOf("end a1")).toBeLessThan(log.indexOf("start a2"));
    expect(log.indexOf("start b1")).toBeLessThan(log.indexOf("end a1"));
    expect(a.pending).toBe(0);
  });

  it("keeps the lock usable after a call fails, and fails calls queued on a deleted session", async () => {
    const store = createSessionStore({ newId: ids() });
    const s = store.create(open);
    await expect(s.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await s.run(() => 42)).toBe(42);
    let release!: () => void;
    const first = s.run(() => new Promise<void>((resolve) => (release = resolve)));
    const queued = s.run(() => "never");
    queued.catch(() => {}); // asserted below
    await tick();
    store.delete(s.id);
    release();
    await first;
    await expect(queued).rejects.toThrow(SessionNotFoundError);
  });

  it("runs a call on an idle session at once, and one behind a call still running only after it", async () => {
    const store = createSessionStore({ newId: ids() });
    const s = store.create(open);
    const log: string[] = [];
    const now = s.run(() => log.push("idle call"));
    expect(log).toEqual(["idle call"]); // ran before run() returned: no promise chain for an idle session
    expect(await now).toBe(1);
    await expect(
      s.run(() => {
        throw new Error("sync boom");
      }),
    ).rejects.toThrow("sync boom");
    let release!: () => void;
    const slow = s.run(() =>
      new Promise<void>((resolve) => (release = resolve)).then(() => log.push("slow done")),
    );
    const behind = s.run(() => log.push("behind"));
    await tick();
    expect(log).toEqual(["idle call"]);
    expect(s.pending).toBe(2);
    release();
    await Promise.all([slow, behind]);
    expect(log).toEqual(["idle call", "slow done", "behind"]);
    expect(s.pending).toBe(0);
    store.delete(s.id);
    await expect(s.run(() => "closed")).rejects.toThrow(SessionNotFoundError);
  });

  it("refuses sessions past the limit with a Retry-After until idle ones can be reaped", () => {
    const clock = fakeClock();
    const store = createSessionStore({ ttlMs: 10_000, maxSessions: 2, clock: clock.now, newId: ids() });
    store.create(open);
    clock.advance(4_000);
    store.create(open);
    let built = 0;
    const error = (() => {
      try {
        store.create(() => {
          built++;
          return open();
        });
      } catch (e) {
        return e as SessionCapacityError;
      }
    })();
    expect(error).toBeInstanceOf(SessionCapacityError);
    expect(error?.status).toBe(429);
    expect(error?.headers["retry-after"]).toBe("6");
    expect(built).toBe(0);
    clock.advance(6_000);
    expect(store.create(open).id).toBe("ses-3"); // the first one was reaped to make room
    expect(store.ids()).toEqual(["ses-2", "ses-3"]);
  });

  it("rejects unusable settings and ids", () => {
    expect(() => createSessionStore({ ttlMs: 0 })).toThrow(/TTL/);
    expect(() => createSessionStore({ maxSessions: 0 })).toThrow(/maxSessions/);
    const store = createSessionStore({ newId: () => "ses-same" });
    store.create(open);
    expect(() => store.create(open)).toThrow(/duplicate/);
    expect(() => createSessionStore({ newId: () => "x/y" }).create(open)).toThrow(/unusable/);
  });
});
