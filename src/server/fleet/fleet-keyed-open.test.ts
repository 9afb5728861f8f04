/**
 * Session openings with an Idempotency-Key on `serve --workers 2` (each worker holding one session at most):
 * one key opens one session however often it is sent, as on a single server, since its retry reaches the
 * worker that remembers the key; and an opening whose key's home worker is full goes to the next, where its
 * retry finds it again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeRequest } from "./fleet-routes.ts";
import { type RunningFleet, startFleet } from "./start-fleet.ts";

let fleet: RunningFleet;

beforeAll(async () => {
  fleet = await startFleet({ workers: 2, port: 0, args: ["--max-sessions", "1"], output: "ignore" });
}, 60_000);
afterAll(() => fleet?.close());

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${fleet.url}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the test reads loose JSON answers
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe("keyed session openings on a fleet", () => {
  it("opens one session for one Idempotency-Key however often it is sent, as a single server does", async () => {
    const openWith = (key: string) =>
      call("POST", "/v1/sessions", { task_id: "jira-transition-v1/eval/0" }, { "idempotency-key": key });
    const first = await openWith("fleet-key-1");
    const again = [
      await openWith("fleet-key-1"),
      await openWith("fleet-key-1"),
      await openWith("fleet-key-1"),
    ];
    expect(first.status).toBe(200);
    expect(again.map((a) => a.body.session_id)).toEqual(Array(3).fill(first.body.session_id));
    // Another key opens another session (the fleet still spreads the load).
    const other = await openWith("fleet-key-2");
    expect(other.body.session_id).not.toBe(first.body.session_id);
    for (const opened of [first, other]) await call("DELETE", `/v1/sessions/${opened.body.session_id}`);
  });

  it("opens on the next worker when the key's home is full, and answers the retry from there", async () => {
    // Two keys with one home worker: the second opening finds it full.
    const keys = Array.from({ length: 40 }, (_, i) => `full-${i}`);
    const homeOf = (key: string) => {
      const route = routeRequest("POST", "/v1/sessions", 2, null, key);
      return route.to === "open" ? route.home : -1;
    };
    const [first, second] = keys.filter((key) => homeOf(key) === homeOf(keys[0]!));
    const openWith = async (key: string) => {
      const { status, body } = await call(
        "POST",
        "/v1/sessions",
        { task_id: "jira-transition-v1/eval/0" },
        { "idempotency-key": key },
      );
      return { status, id: body.session_id as string | undefined };
    };
    const a = await openWith(first!);
    const b = await openWith(second!);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.id!.slice(0, 7)).not.toBe(b.id!.slice(0, 7)); // on both workers
    expect(await openWith(second!)).toEqual(b);
    expect(await openWith(first!)).toEqual(a);
  }, 60_000);
});
