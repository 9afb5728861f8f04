/**
 * A REST write that its API version refuses before the operation runs (Jira v2's wiki text that is not a
 * string, a Confluence v1 page whose title is not one) is recorded as a call that never ran: the journal
 * keeps its answer, so a restart replays the session instead of setting it aside, and a retry with the
 * same Idempotency-Key runs once fixed.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGymHandler } from "./start-gym-server.ts";

type Handler = ReturnType<typeof createGymHandler>;

async function send(handler: Handler, method: string, path: string, body?: unknown, key?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (key !== undefined) headers["idempotency-key"] = key;
  const response = await handler.fetch(
    new Request(`http://gym.test${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked by the assertions
  return { status: response.status, body: (text ? JSON.parse(text) : null) as any };
}

describe("REST writes refused by their API version's translation", () => {
  it("replay from the journal after a restart, the session whole", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rest-refusals-"));
    const before = createGymHandler({ seed: 1, journal: dir });
    const opened = await send(before, "POST", "/v1/sessions", { task_id: "jira-transition-v1/eval/0" });
    const sid = opened.body.session_id as string;
    const v2 = `/s/${sid}/rest/api/2/issue/ENG-1/comment`;
    const refused = await send(before, "POST", v2, { body: { x: 1 } }, "fix-me");
    expect(refused.status).toBe(400);
    expect(refused.body.errorMessages.join(" ") + JSON.stringify(refused.body.errors)).toMatch(/string/);
    const page = await send(before, "POST", `/s/${sid}/wiki/rest/api/content`, { type: "page", title: 5 });
    expect(page.status).toBe(400);
    const edit = await send(before, "PUT", `/s/${sid}/rest/api/2/issue/ENG-1`, {
      fields: { description: { x: 1 } },
    });
    expect(edit.status).toBe(400);
    expect((await send(before, "POST", v2, { body: "now *right*" }, "fix-me")).status).toBe(201);
    const trace = (await send(before, "GET", `/v1/sessions/${sid}/trace`)).body;
    expect(trace.calls).toHaveLength(4);
    before.journal?.close(); // abandoned here, as after kill -9

    const after = createGymHandler({ seed: 1, journal: dir });
    expect(after.restored?.restored).toEqual([sid]);
    expect((await send(after, "GET", `/v1/sessions/${sid}/trace`)).body).toEqual(trace);
    const retried = await send(after, "POST", v2, { body: "now *right*" }, "fix-me");
    expect(retried.status).toBe(201);
    expect(
      (await send(after, "GET", `/s/${sid}/rest/api/2/issue/ENG-1/comment`)).body.comments.at(-1).body,
    ).toBe("now *right*");
    after.journal?.close();
  });
});
