/**
 * Train and evaluate on identical observations: the same task's tool calls answer byte for byte the same
 * through an eval episode, the env server's /v1 API and MCP bound to an env-server session, with the
 * site's canonical base URL (never the session's loopback address) in self links and `_links.base`. The
 * REST facade under `rest_base_url` keeps answering with its own address, for real REST clients.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { createEpisode } from "../env/episode.ts";
import { DEFAULT_BASE_URL } from "../sandbox/fixtures/default-site.ts";
import { tasksFor } from "../scenarios/frozen.ts";
import { findScenario } from "../scenarios/index.ts";
import type { ToolCallRequest, ToolCallResult } from "../tools/tool-call-result.ts";
import { createGymHandler } from "./start-gym-server.ts";

const ORIGIN = "http://127.0.0.1:4999";
const scenario = findScenario("cross-product-page-link-v1");
const task = tasksFor(scenario, "eval", 1)[0]!;
const expected = task.expected as { issueKey: string; spaceKey: string };

/** Reads (with self links and `_links.base`), a write that allocates an id, and a failing call. */
const CALLS: ToolCallRequest[] = [
  { name: "jira_get_issue", arguments: { issueIdOrKey: expected.issueKey } },
  { name: "confluence_get_spaces", arguments: { keys: [expected.spaceKey] } },
  { name: "jira_get_remote_links", arguments: { issueIdOrKey: expected.issueKey } },
  { name: "jira_get_issue", arguments: { issueIdOrKey: "NOPE-1" } },
];

async function json(
  handler: ReturnType<typeof createGymHandler>,
  method: string,
  path: string,
  body?: unknown,
) {
  const init: RequestInit = { method, headers: { "content-type": "application/json" } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await handler.fetch(new Request(`${ORIGIN}${path}`, init));
  return response.json() as Promise<Record<string, unknown>>;
}

describe("the same observations in training and evaluation", () => {
  it("answers every tool call identically through eval, the env server and MCP", async () => {
    for (const call of CALLS) expect(scenario.tools).toContain(call.name);
    const evalEpisode = createEpisode(scenario, task);
    const fromEval = CALLS.map((call) => evalEpisode.step(call).observation);

    const handler = createGymHandler({ seed: 1 });
    const opened = await json(handler, "POST", "/v1/sessions", { task_id: task.id });
    const fromServer: string[] = [];
    for (const call of CALLS) {
      const answer = await json(handler, "POST", `/v1/sessions/${opened.session_id}/tools/${call.name}`, {
        arguments: call.arguments,
      });
      fromServer.push((answer.ok ? answer.output : answer.error) as string);
    }

    const bound = await json(handler, "POST", "/v1/sessions", { task_id: task.id });
    const transport = new StreamableHTTPClientTransport(
      new URL(`${ORIGIN}/mcp?session=${bound.session_id}`),
      {
        fetch: async (url, init) => handler.fetch(new Request(url, init)),
      },
    );
    const mcp = new Client({ name: "same-observations", version: "1" });
    await mcp.connect(transport);
    const fromMcp: string[] = [];
    for (const call of CALLS) {
      const answer = await mcp.callTool({
        name: call.name,
        arguments: call.arguments as Record<string, unknown>,
      });
      fromMcp.push((answer.content as { text: string }[])[0]!.text);
    }
    await mcp.close();

    expect(fromServer).toEqual(fromEval);
    expect(fromMcp).toEqual(fromEval);
    const all = fromEval.join("\n");
    expect(all).toContain(`"self":"${DEFAULT_BASE_URL}/rest/api/3/issue/`);
    expect(all).toContain(`"base":"${DEFAULT_BASE_URL}/wiki"`);
    expect(all).not.toContain("127.0.0.1");

    // Real REST clients still get links to the session's own site.
    const rest = await handler.fetch(
      new Request(`${opened.rest_base_url}/rest/api/3/issue/${expected.issueKey}?fields=summary`),
    );
    expect(((await rest.json()) as { self: string }).self).toBe(
      `${ORIGIN}/s/${opened.session_id}/rest/api/3/issue/${(JSON.parse(fromEval[0]!) as { id: string }).id}`,
    );
    await handler.mcp.close();
  });

  it("credits the page URL on the canonical base, and on the session's REST address", async () => {
    const handler = createGymHandler({ seed: 1 });
    for (const base of ["canonical", "rest"] as const) {
      const opened = await json(handler, "POST", "/v1/sessions", { task_id: task.id });
      const solution = scenario.reference(task);
      let next = solution.next(undefined as unknown as ToolCallResult);
      let linked = "";
      while (!next.done) {
        const call = structuredClone(next.value);
        const object = (call.arguments as { object?: { url: string } }).object;
        if (object && base === "rest")
          object.url = object.url.replace(DEFAULT_BASE_URL, opened.rest_base_url as string);
        linked ||= object?.url ?? "";
        const answer = await json(handler, "POST", `/v1/sessions/${opened.session_id}/tools/${call.name}`, {
          arguments: call.arguments,
        });
        const text = (answer.ok ? answer.output : answer.error) as string;
        next = solution.next({ ok: answer.ok, observation: text, body: JSON.parse(text) } as ToolCallResult);
      }
      expect(linked.startsWith(base === "rest" ? `${ORIGIN}/s/` : `${DEFAULT_BASE_URL}/wiki/spaces/`)).toBe(
        true,
      );
      const score = await json(handler, "POST", `/v1/sessions/${opened.session_id}/score`, {});
      expect(score).toMatchObject({ passed: true, reward: 1 });
    }
    await handler.mcp.close();
  });
});
