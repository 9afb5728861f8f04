/** Where the fleet router sends each kind of request (pure: no processes). */
import { describe, expect, it } from "vitest";
import { routeRequest, workerMcpSessionId, workerOfSession, workerSessionId } from "./fleet-routes.ts";

describe("fleet routes", () => {
  const sid = workerSessionId(2);

  it("names the worker in the session id, and reads it back only for a worker that exists", () => {
    expect(sid).toMatch(/^ses-w2-[0-9a-f-]{36}$/);
    expect(workerOfSession(sid, 3)).toBe(2);
    expect(workerOfSession(sid, 2)).toBeNull();
    expect(workerOfSession("ses-1234", 3)).toBeNull();
  });

  it("sends every call on a session to its worker, whatever the surface", () => {
    for (const [method, target] of [
      ["POST", `/v1/sessions/${sid}/tools/jira_get_issue`],
      ["POST", `/v1/sessions/${sid}/score`],
      ["GET", `/v1/sessions/${sid}/trace`],
      ["DELETE", `/v1/sessions/${sid}`],
      ["GET", `/s/${sid}/rest/api/3/issue/ENG-1?fields=summary`],
      ["PUT", `/s/${sid}/wiki/api/v2/pages/1`],
      ["POST", `/mcp?tools=rovo&session=${sid}`],
    ] as const)
      expect(routeRequest(method, target, 3), `${method} ${target}`).toEqual({ to: "worker", worker: 2 });
  });

  it("answers /health and the session listing from all workers, and opens sessions in turn", () => {
    expect(routeRequest("GET", "/health", 3)).toEqual({ to: "health" });
    expect(routeRequest("GET", "/v1/sessions?x=1", 3)).toEqual({ to: "sessions" });
    expect(routeRequest("POST", "/v1/sessions", 3)).toEqual({ to: "open" });
    // With a key, one home for that key: its retry finds the worker that remembers it.
    const homes = ["k1", "k2", "k3", "k4", "k5", "k6"].map((key) =>
      routeRequest("POST", "/v1/sessions", 3, null, key),
    );
    expect(homes.every((home) => home.to === "open" && home.home !== undefined)).toBe(true);
    expect(routeRequest("POST", "/v1/sessions", 3, null, "k1")).toEqual(homes[0]);
    expect(new Set(homes.map((h) => (h.to === "open" ? h.home : -1))).size).toBeGreaterThan(1);
    expect(routeRequest("GET", "/v1/scenarios/jira-transition-v1/tasks?split=train&n=2", 3)).toEqual({
      to: "any",
    });
  });

  it("sends a new free MCP sandbox round the workers, and each later request to the worker its id names", () => {
    expect(routeRequest("POST", "/mcp?tools=rovo", 3)).toEqual({ to: "open" });
    expect(routeRequest("POST", "/mcp", 3, workerMcpSessionId(2))).toEqual({ to: "worker", worker: 2 });
    expect(routeRequest("DELETE", "/mcp?tools=rovo", 3, workerMcpSessionId(1))).toEqual({
      to: "worker",
      worker: 1,
    });
    // An id no worker of this fleet made (another fleet's, or none at all) goes to worker 0, which answers it.
    for (const id of [workerMcpSessionId(7), "0b6f5d2e-1c1a-4c39-a1b5-0f6b5b0c2c11"])
      expect(routeRequest("POST", "/mcp", 3, id)).toEqual({ to: "worker", worker: 0 });
    expect(routeRequest("DELETE", "/mcp", 3)).toEqual({ to: "worker", worker: 0 });
    // Bound to an env session, the session's worker as before, whatever the MCP id says.
    expect(routeRequest("POST", `/mcp?session=${sid}`, 3, workerMcpSessionId(0))).toEqual({
      to: "worker",
      worker: 2,
    });
  });

  it("gives state that is no session's one home: the default site on worker 0, a site by its id", () => {
    expect(routeRequest("POST", "/rest/api/3/issue", 3)).toEqual({ to: "worker", worker: 0 });
    expect(routeRequest("GET", "/wiki/api/v2/spaces", 3)).toEqual({ to: "worker", worker: 0 });
    const homes = ["a", "b", "c", "d", "e", "f"].map((id) =>
      routeRequest("GET", `/s/${id}/rest/api/3/myself`, 3),
    );
    expect(homes).toEqual(["a", "b", "c", "d", "e", "f"].map((id) => routeRequest("POST", `/s/${id}/x`, 3)));
    expect(new Set(homes.map((h) => (h.to === "worker" ? h.worker : -1))).size).toBeGreaterThan(1);
  });

  it("sends a watcher's view of one session to its worker, and lists every worker's for the live listing", () => {
    for (const target of [`/v1/live/sessions/${sid}`, `/v1/live/sessions/${sid}?since=2`])
      expect(routeRequest("GET", target, 3), target).toEqual({ to: "worker", worker: 2 });
    expect(routeRequest("GET", `/v1/live/sessions/ses%2Dw2-${sid.slice(7)}`, 3)).toEqual({
      to: "worker",
      worker: 2,
    });
    expect(routeRequest("GET", "/v1/live/sessions", 3)).toEqual({ to: "live" });
    expect(routeRequest("HEAD", "/v1/live/sessions?x=1", 3)).toEqual({ to: "live" });
    // Not a listing: answered by one worker as a server answers it (405/404).
    expect(routeRequest("POST", "/v1/live/sessions", 3)).toEqual({ to: "any" });
  });

  it("routes by the path as a single server decodes it: percent-encoded spellings reach the same worker", () => {
    for (const [plain, encoded] of [
      [`/s/${sid}/rest/api/3/myself`, `/%73/${sid}/rest/api/3/myself`],
      [`/s/${sid}/rest/api/3/myself`, `/s/ses%2D${sid.slice(4)}/rest/api/3/myself`],
      [`/v1/sessions/${sid}/score`, `/v1/%73essions/${sid}/score`],
      ["/s/adhoc-fleet/rest/api/3/myself", "/%73/adhoc-fleet/rest/api/3/myself"],
      ["/s/adhoc-fleet/rest/api/3/myself", "/s/adhoc%2Dfleet/rest/api/3/myself"],
      ["/v1/sessions", "/v1/%73essions"],
    ] as const)
      expect(routeRequest("POST", encoded, 3), encoded).toEqual(routeRequest("POST", plain, 3));
    expect(routeRequest("GET", "/v1/live/%73essions", 3)).toEqual({ to: "live" });
    // Which part of the server answers is the path as sent, as on a single server: `/%761/...` and
    // `/%6dcp` are the REST facade's (a 404 there), so they go where the default site lives.
    expect(routeRequest("GET", `/%761/sessions/${sid}/trace`, 3)).toEqual({ to: "worker", worker: 0 });
    expect(routeRequest("GET", "/%68ealth", 3)).toEqual({ to: "worker", worker: 0 });
    expect(routeRequest("POST", `/%6dcp?session=${sid}`, 3)).toEqual({ to: "worker", worker: 0 });
    // Malformed escapes are left as they are, not an error.
    expect(routeRequest("GET", "/s/%E0%A4%A/rest/api/3/myself", 3).to).toBe("worker");
    expect(routeRequest("GET", "/v1/sessions/%zz/trace", 3)).toEqual({ to: "worker", worker: 0 });
  });

  it("sends an id that names no worker to worker 0, which answers it as unknown after its own auth check", () => {
    expect(routeRequest("POST", "/v1/sessions/ses-w9-x/score", 3)).toEqual({ to: "worker", worker: 0 });
    expect(routeRequest("GET", "/s/ses-nope/rest/api/3/myself", 3)).toEqual({ to: "worker", worker: 0 });
  });
});
