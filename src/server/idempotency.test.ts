/**
 * Exactly once: REST writes on a session's site, tool calls and session openings carrying an
 * Idempotency-Key are applied once; a retry with the same key and request gets the first answer again
 * (byte for byte, marked Idempotent-Replayed), also on a server rebuilt from the journal after the first
 * was abandoned (as after kill -9); the same key on another request is refused and changes nothing; calls
 * without a key behave as before.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IdempotencyConflictError, KeptAnswers, keyed } from "./idempotency.ts";
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
  return {
    status: response.status,
    text: await response.text(),
    replayed: response.headers.get("idempotent-replayed"),
  };
}

const comment = (text: string) => ({
  body: { type: "doc", version: 1, content: [{ type: "paragraph", content: [{ type: "text", text }] }] },
});

async function openSession(handler: Handler, key?: string): Promise<string> {
  const opened = await send(handler, "POST", "/v1/sessions", { task_id: "jira-transition-v1/eval/0" }, key);
  expect(opened.status).toBe(200);
  return JSON.parse(opened.text).session_id;
}

/** A transition of ENG-1 away from its status, as jira_transition_issue arguments. */
async function transitionArgs(handler: Handler, sid: string) {
  const listed = JSON.parse(
    (await send(handler, "GET", `/s/${sid}/rest/api/3/issue/ENG-1/transitions`)).text,
  );
  return { arguments: { issueIdOrKey: "ENG-1", transition: { id: listed.transitions[0].id } } };
}

const writes = async (handler: Handler, sid: string) =>
  JSON.parse((await send(handler, "GET", `/v1/sessions/${sid}/trace`)).text).calls.filter(
    (c: { name: string }) => c.name === "jira_transition_issue",
  ).length as number;

const commentCount = async (handler: Handler, sid: string) =>
  JSON.parse((await send(handler, "GET", `/s/${sid}/rest/api/3/issue/ENG-1/comment`)).text).total as number;

describe("idempotency keys", () => {
  it("applies a keyed REST write on a session's site once, and answers its retry with the first answer", async () => {
    const handler = createGymHandler({ seed: 1 });
    const sid = await openSession(handler);
    const path = `/s/${sid}/rest/api/3/issue/ENG-1/comment`;
    const before = await commentCount(handler, sid);
    const first = await send(handler, "POST", path, comment("once"), "k-1");
    expect(first.status).toBe(201);
    expect(first.replayed).toBeNull();
    const retry = await send(handler, "POST", path, comment("once"), "k-1");
    expect(retry).toEqual({ ...first, replayed: "true" });
    // v2 is a presentation: its answer is kept in v2's own shape.
    const v2 = `/s/${sid}/rest/api/2/issue/ENG-1/comment`;
    const firstV2 = await send(handler, "POST", v2, { body: "wiki *text*" }, "k-2");
    expect((await send(handler, "POST", v2, { body: "wiki *text*" }, "k-2")).text).toBe(firstV2.text);
    expect(await commentCount(handler, sid)).toBe(before + 2);
    // The same key on another request: refused in the vendor's shape, nothing applied.
    const reused = await send(handler, "POST", path, comment("different"), "k-1");
    expect(reused.status).toBe(422);
    expect(JSON.parse(reused.text).errorMessages[0]).toMatch(/already used for a different request/);
    // Without a key, a write runs each time; a bad key is refused.
    await send(handler, "POST", path, comment("again"));
    await send(handler, "POST", path, comment("again"));
    expect(await commentCount(handler, sid)).toBe(before + 4);
    expect((await send(handler, "POST", path, comment("x"), "bad key with spaces")).status).toBe(400);
    expect(await commentCount(handler, sid)).toBe(before + 4);
    // A write refused as invalid keeps nothing under its key: fixed, it runs with the same key.
    expect((await send(handler, "POST", path, { body: 42 }, "k-fix")).status).toBe(400);
    expect((await send(handler, "POST", path, comment("fixed"), "k-fix")).status).toBe(201);
    expect((await send(handler, "POST", path, comment("fixed"), "k-fix")).replayed).toBe("true");
    expect(await commentCount(handler, sid)).toBe(before + 5);
    const trace = JSON.parse((await send(handler, "GET", `/v1/sessions/${sid}/trace`)).text);
    expect(trace.calls.filter((c: { name: string }) => c.name.startsWith("POST"))).toHaveLength(6);
  });

  it("takes another acting user's same request under a key for another request, never its answer", async () => {
    const handler = createGymHandler({ seed: 1 });
    const sid = await openSession(handler);
    const as = (email: string) =>
      handler.fetch(
        new Request(`http://gym.test/s/${sid}/rest/api/3/issue/ENG-1/comment`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "idempotency-key": "u-1",
            authorization: `Basic ${Buffer.from(`${email}:x`).toString("base64")}`,
          },
          body: JSON.stringify(comment("mine")),
        }),
      );
    const agent = await as("agent@example.com");
    expect(agent.status).toBe(201);
    expect((await as("agent@example.com")).headers.get("idempotent-replayed")).toBe("true");
    const other = await as("alex.chen@example.com");
    expect(other.status).toBe(422);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
  });

  it("reads a write's body before taking the session's lock: a client slow to send it holds up nothing", async () => {
    const handler = createGymHandler({ seed: 1 });
    const sid = await openSession(handler);
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"body":'));
      },
    });
    const pending = handler.fetch(
      new Request(`http://gym.test/s/${sid}/rest/api/3/issue/ENG-1/comment`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: stalled,
        duplex: "half",
      } as RequestInit),
    );
    // The trainer's calls on the session answer while the agent's body is still on its way.
    expect((await send(handler, "GET", `/v1/sessions/${sid}/trace`)).status).toBe(200);
    expect((await send(handler, "POST", `/v1/sessions/${sid}/score`, {})).status).toBe(200);
    void Promise.resolve(pending).catch(() => undefined);
  });

  it("applies a keyed tool call and a keyed opening once", async () => {
    const handler = createGymHandler({ seed: 1 });
    const sid = await openSession(handler, "open-1");
    expect(await openSession(handler, "open-1")).toBe(sid);
    expect(handler.sessions.size).toBe(1);
    const tool = `/v1/sessions/${sid}/tools/jira_transition_issue`;
    const args = await transitionArgs(handler, sid);
    const first = await send(handler, "POST", tool, args, "t-1");
    expect(JSON.parse(first.text).ok).toBe(true);
    expect(first.replayed).toBeNull();
    const retry = await send(handler, "POST", tool, args, "t-1");
    expect(retry).toEqual({ ...first, replayed: "true" });
    // The same through the Hono route (a percent-encoded name skips the fast path in front of it).
    const routed = await send(handler, "POST", tool.replace("_issue", "%5Fissue"), args, "t-1");
    expect(routed).toEqual({ ...first, replayed: "true" });
    // A retry numbered as the last call (seq) without a key is not a kept key's answer: not marked.
    const numbered = { ...(await transitionArgs(handler, sid)), seq: 1 };
    expect((await send(handler, "POST", tool, numbered)).replayed).toBeNull();
    expect((await send(handler, "POST", tool, numbered)).replayed).toBeNull();
    // Under that number, other arguments without a key are another call: refused, never that call's answer.
    const otherCall = await send(handler, "POST", tool, { arguments: { issueIdOrKey: "ENG-2" }, seq: 1 });
    expect(otherCall.status).toBe(409);
    expect(JSON.parse(otherCall.text)).toMatchObject({ code: "seq_conflict", last_seq: 1 });
    // And with a key: a key the number was never used with does not make another call that call's retry.
    const keyedOther = await send(
      handler,
      "POST",
      tool,
      { arguments: { issueIdOrKey: "ENG-2" }, seq: 1 },
      "t-9",
    );
    expect(keyedOther.status).toBe(409);
    const other = await send(handler, "POST", tool, { arguments: { issueIdOrKey: "ENG-2" } }, "t-1");
    expect(other.status).toBe(422);
    expect(JSON.parse(other.text).code).toBe("idempotency_key_reused");
    expect(await writes(handler, sid)).toBe(2);
    // Closing the session frees its opening key.
    await send(handler, "DELETE", `/v1/sessions/${sid}`);
    expect(await openSession(handler, "open-1")).not.toBe(sid);
  });

  it("guards a session's site however its path is percent-encoded", async () => {
    const handler = createGymHandler({ seed: 1 });
    const sid = await openSession(handler);
    const encoded = `/s/${sid.replace("-", "%2D")}/rest/api/3/issue/ENG-1/comment`;
    const before = await commentCount(handler, sid);
    const first = await send(handler, "POST", encoded, comment("once"), "enc-1");
    expect(first.status).toBe(201);
    expect(await send(handler, "POST", encoded, comment("once"), "enc-1")).toEqual({
      ...first,
      replayed: "true",
    });
    expect(
      (await send(handler, "POST", `/%73/${sid}/rest/api/3/issue/ENG-1/comment`, comment("once"), "enc-1"))
        .replayed,
    ).toBe("true");
    expect(await commentCount(handler, sid)).toBe(before + 1);
    // A closed session's site is gone under any spelling, not a fresh site.
    await send(handler, "DELETE", `/v1/sessions/${sid}`);
    const gone = await send(handler, "GET", `/s/${sid.replace("-", "%2D")}/rest/api/3/issue/ENG-1`);
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.text).errorMessages[0]).toMatch(/not found/);
  });

  it("refuses a keyed chunked body over the limit at once, keeping nothing under its key", async () => {
    const handler = createGymHandler({ seed: 1 });
    const sid = await openSession(handler);
    const path = `/s/${sid}/rest/api/3/issue/ENG-1/comment`;
    const chunk = new TextEncoder().encode(`"${"x".repeat(64 * 1024)}",`);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"junk":['));
        for (let i = 0; i < 32; i++) controller.enqueue(chunk); // 2 MiB, no Content-Length
        controller.enqueue(new TextEncoder().encode('""]}'));
        controller.close();
      },
    });
    const response = await handler.fetch(
      new Request(`http://gym.test${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": "big-1" },
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(((await response.json()) as { errorMessages: string[] }).errorMessages[0]).toMatch(
      /larger than the 1048576 byte limit/,
    );
    const fixed = await send(handler, "POST", path, comment("small"), "big-1");
    expect(fixed.status).toBe(201);
    expect(fixed.replayed).toBeNull();
  });

  it("refuses a call numbered as the last one but under another key, also after a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-idem-"));
    const before = createGymHandler({ seed: 1, journal: dir });
    const sid = await openSession(before);
    const tool = `/v1/sessions/${sid}/tools/jira_get_issue`;
    const read = (key: string) => ({ arguments: { issueIdOrKey: key } });
    const first = await send(before, "POST", tool, { ...read("ENG-1"), seq: 1 }, "a");
    expect(JSON.parse(first.text).ok).toBe(true);
    const calls = async (h: Handler) =>
      JSON.parse((await send(h, "GET", `/v1/sessions/${sid}/trace`)).text).calls;
    for (const handler of [before, createGymHandler({ seed: 1, journal: dir })]) {
      // Another call that took the same number (two threads numbering one session): never ENG-1's answer.
      const taken = await send(handler, "POST", tool, { ...read("ENG-2"), seq: 1 }, "b");
      expect(taken.status).toBe(409);
      expect(JSON.parse(taken.text)).toMatchObject({ code: "seq_conflict", last_seq: 1 });
      expect(JSON.parse(taken.text).error).toMatch(/another Idempotency-Key/);
      expect(await send(handler, "POST", tool, { ...read("ENG-1"), seq: 1 }, "a")).toEqual({
        ...first,
        replayed: "true",
      });
      expect(await calls(handler)).toHaveLength(1);
    }
  });

  it("replays REST writes their API version refused before translating them, the session whole", async () => {
    // A Jira v2 comment or edit whose wiki text is not a string, a Confluence v1 title that is a number:
    // calls that never ran, so the journal keeps their answers instead of running v3 on the raw input.
    const dir = mkdtempSync(join(tmpdir(), "atlas-idem-"));
    const before = createGymHandler({ seed: 1, journal: dir });
    const sid = await openSession(before);
    const v2 = `/s/${sid}/rest/api/2/issue/ENG-1/comment`;
    const refused = await send(before, "POST", v2, { body: { x: 1 } }, "fix-me");
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/must be a string/);
    const page = await send(before, "POST", `/s/${sid}/wiki/rest/api/content`, { type: "page", title: 5 });
    expect(page.status).toBe(400);
    const edit = await send(before, "PUT", `/s/${sid}/rest/api/2/issue/ENG-1`, {
      fields: { description: { x: 1 } },
    });
    expect(edit.status).toBe(400);
    expect((await send(before, "POST", v2, { body: "now *right*" }, "fix-me")).status).toBe(201);
    const trace = (await send(before, "GET", `/v1/sessions/${sid}/trace`)).text;
    expect(JSON.parse(trace).calls).toHaveLength(4);
    before.journal?.close(); // abandoned here, as after kill -9

    const after = createGymHandler({ seed: 1, journal: dir });
    expect(after.restored?.restored).toEqual([sid]);
    expect((await send(after, "GET", `/v1/sessions/${sid}/trace`)).text).toBe(trace);
    expect((await send(after, "POST", v2, { body: "now *right*" }, "fix-me")).replayed).toBe("true");
    after.journal?.close();
  });

  it("keeps the first answers across a restart from the journal", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atlas-idem-"));
    const before = createGymHandler({ seed: 1, journal: dir });
    const sid = await openSession(before, "open-r");
    const path = `/s/${sid}/rest/api/3/issue/ENG-1/comment`;
    const first = await send(before, "POST", path, comment("survives"), "r-1");
    const tool = `/v1/sessions/${sid}/tools/jira_transition_issue`;
    const args = await transitionArgs(before, sid);
    const firstTool = await send(before, "POST", tool, args, "r-2");
    expect(JSON.parse(firstTool.text).ok).toBe(true);
    const count = await commentCount(before, sid);
    before.journal?.close(); // the first server is abandoned here, as after kill -9

    const after = createGymHandler({ seed: 1, journal: dir });
    expect(after.restored?.restored).toEqual([sid]);
    expect(await openSession(after, "open-r")).toBe(sid);
    const retry = await send(after, "POST", path, comment("survives"), "r-1");
    expect(retry).toEqual({ ...first, replayed: "true" });
    expect(await send(after, "POST", tool, args, "r-2")).toEqual({ ...firstTool, replayed: "true" });
    expect(await writes(after, sid)).toBe(1);
    expect(await commentCount(after, sid)).toBe(count);
    after.journal?.close();
  });
});

describe("keyed requests", () => {
  it("fingerprint the request as it was sent, whenever the digest is read", () => {
    const args = { issueIdOrKey: "ENG-1", fields: ["summary"] };
    const first = keyed("k", "tool", "jira_get_issue", args);
    args.fields.push("status"); // a tool normalising what it was given, after the key was taken
    expect(first.fingerprint).toBe(
      keyed("k", "tool", "jira_get_issue", { issueIdOrKey: "ENG-1", fields: ["summary"] }).fingerprint,
    );
    expect(first.fingerprint).not.toBe(keyed("k", "tool", "jira_get_issue", args).fingerprint);
    expect(first.fingerprint).toMatch(/^[\w-]{22}$/);
  });

  it("find a kept answer by key, refuse the key on another request, and match a journal's digest", () => {
    const kept = new KeptAnswers<string>();
    kept.keep(keyed("k", "tool", "a", { x: 1 }), "first");
    expect(kept.find(keyed("k", "tool", "a", { x: 1 }))).toBe("first");
    expect(kept.find(keyed("other", "tool", "a", { x: 1 }))).toBeUndefined();
    expect(() => kept.find(keyed("k", "tool", "a", { x: 2 }))).toThrow(IdempotencyConflictError);
    // A request restored from the journal carries the digest itself.
    const restored = new KeptAnswers<string>();
    restored.keep({ key: "k", fingerprint: keyed("k", "tool", "a", { x: 1 }).fingerprint }, "first");
    expect(restored.find(keyed("k", "tool", "a", { x: 1 }))).toBe("first");
    expect(() => restored.find(keyed("k", "tool", "a", { x: 2 }))).toThrow(IdempotencyConflictError);
  });
});
