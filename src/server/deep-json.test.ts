/**
 * JSON nested past the limit (sandbox/parse-json.ts) on every surface of a journaled server: a REST
 * write on a session's site answers 400 in the vendor's shape and applies nothing; a tool call's body
 * answers 400 `invalid_json`; JSON arguments sent as text are the agent's invalid_args; MCP over HTTP
 * answers a JSON-RPC parse error. The session's trace, score and journal stay whole (a restart replays
 * it), and nesting at the limit still goes through every surface, journal and replay included. A page's
 * storage body (flat text, nested as XHTML) has its own limit (sandbox/adf/xhtml.ts), past which the
 * write is Confluence's 400 and at which the page still reads and the session scores.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../sandbox/parse-json.ts";
import { createGymHandler } from "./start-gym-server.ts";

type Handler = ReturnType<typeof createGymHandler>;

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const ADF = {
  type: "doc",
  version: 1,
  content: [{ type: "paragraph", content: [{ type: "text", text: "hi" }] }],
};

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked by the assertions
async function send(handler: Handler, method: string, path: string, text?: string): Promise<any> {
  const response = await handler.fetch(
    new Request(`http://gym.test${path}`, {
      method,
      headers:
        text === undefined
          ? {}
          : { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: text,
    }),
  );
  const body = await response.text();
  return { status: response.status, body: body ? JSON.parse(body) : null };
}

async function openSession(handler: Handler): Promise<string> {
  const opened = await send(
    handler,
    "POST",
    "/v1/sessions",
    JSON.stringify({ task_id: "jira-transition-v1/eval/0" }),
  );
  return opened.body.session_id;
}

const comment = (junkDepth: number) => `{"body":${JSON.stringify(ADF)},"junk":${nested(junkDepth)}}`;

describe("JSON nested past the limit", () => {
  it("is refused on every surface, changes nothing, and leaves the session and its journal whole", async () => {
    const dir = mkdtempSync(join(tmpdir(), "deep-json-"));
    const handler = createGymHandler({ seed: 1, journal: dir });
    const sid = await openSession(handler);
    const comments = async (h: Handler) =>
      (await send(h, "GET", `/s/${sid}/rest/api/3/issue/ENG-1/comment`)).body.total;
    const before = await comments(handler);

    const rest = await send(handler, "POST", `/s/${sid}/rest/api/3/issue/ENG-1/comment`, comment(5000));
    expect(rest.status).toBe(400);
    expect(rest.body.errorMessages.join(" ")).toMatch(/nested deeper than 1000 levels/);
    expect(await comments(handler)).toBe(before);

    const tool = await send(
      handler,
      "POST",
      `/v1/sessions/${sid}/tools/jira_get_issue`,
      `{"arguments":{"issueIdOrKey":"ENG-1","junk":${nested(5000)}}}`,
    );
    expect(tool.status).toBe(400);
    expect(tool.body).toMatchObject({ code: "invalid_json" });

    const asText = await send(
      handler,
      "POST",
      `/v1/sessions/${sid}/tools/jira_get_issue`,
      JSON.stringify({ arguments: `{"issueIdOrKey":"ENG-1","junk":${nested(5000)}}` }),
    );
    expect(asText.status).toBe(200);
    expect(asText.body).toMatchObject({ ok: false, error_type: "invalid_args" });
    expect(asText.body.error).toMatch(/nested deeper than 1000 levels/);

    const mcp = await send(
      handler,
      "POST",
      "/mcp",
      `{"jsonrpc":"2.0","id":1,"method":"ping","params":${`{"a":`.repeat(5000)}1${"}".repeat(5000)}}`,
    );
    expect(mcp.status).toBe(400);
    expect(mcp.body.error.code).toBe(-32700);

    const trace = await send(handler, "GET", `/v1/sessions/${sid}/trace`);
    expect(trace.status).toBe(200);
    expect((await send(handler, "POST", `/v1/sessions/${sid}/score`, "{}")).status).toBe(200);

    // A restart on the journal (as after kill -9) rebuilds the session with the same trace.
    const after = createGymHandler({ seed: 1, journal: dir });
    expect((await send(after, "GET", `/v1/sessions/${sid}/trace`)).body.calls).toEqual(trace.body.calls);
    expect(await comments(after)).toBe(before);
  });

  it("in a page's storage body: refused past the limit, and at it the page reads and the session scores", async () => {
    const handler = createGymHandler({ seed: 1 });
    const sid = await openSession(handler);
    const spaces = await send(handler, "GET", `/s/${sid}/wiki/api/v2/spaces`);
    const spaceId = spaces.body.results[0].id as string;
    const divs = (depth: number) => `${"<div>".repeat(depth)}x${"</div>".repeat(depth)}`;
    const page = (title: string, depth: number) =>
      send(
        handler,
        "POST",
        `/s/${sid}/wiki/api/v2/pages`,
        JSON.stringify({ spaceId, title, body: { representation: "storage", value: divs(depth) } }),
      );
    const refused = await page("Too deep", 10_000);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].title).toMatch(/nested deeper than 1000 levels/);
    const created = await page("Deep enough", 1000);
    expect(created.status).toBe(200);
    const read = await send(
      handler,
      "GET",
      `/s/${sid}/wiki/api/v2/pages/${created.body.id}?body-format=atlas_doc_format`,
    );
    expect(read.status).toBe(200);
    expect((await send(handler, "POST", `/v1/sessions/${sid}/score`, "{}")).status).toBe(200);
  });

  it("goes through at the limit, into the trace, the journal and its replay", async () => {
    const dir = mkdtempSync(join(tmpdir(), "deep-json-"));
    const handler = createGymHandler({ seed: 1, journal: dir });
    const sid = await openSession(handler);
    const rest = await send(
      handler,
      "POST",
      `/s/${sid}/rest/api/3/issue/ENG-1/comment`,
      comment(MAX_JSON_DEPTH - 1),
    );
    expect(rest.status).toBe(201);
    const tool = await send(
      handler,
      "POST",
      `/v1/sessions/${sid}/tools/jira_get_issue`,
      JSON.stringify({ arguments: `{"issueIdOrKey":"ENG-1","junk":${nested(MAX_JSON_DEPTH - 1)}}` }),
    );
    expect(tool.body).toMatchObject({ ok: true });
    const trace = await send(handler, "GET", `/v1/sessions/${sid}/trace`);
    expect(trace.status).toBe(200);
    expect(trace.body.calls).toHaveLength(2);
    expect((await send(handler, "POST", `/v1/sessions/${sid}/score`, "{}")).status).toBe(200);
    const after = createGymHandler({ seed: 1, journal: dir });
    expect((await send(after, "GET", `/v1/sessions/${sid}/trace`)).body.calls).toEqual(trace.body.calls);
  });
});
