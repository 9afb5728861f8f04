/**
 * Rewards do not care which surface was used: each scenario's reference solution, played over REST on
 * a session's site through Jira REST v2 (wiki markup for rich text) and Confluence v1 content, lands on
 * the trace under the same operations and earns the reward that the same solution earns over v3 / v2.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordReference } from "../src/agent/scripted/replay.ts";
import { adfToWiki } from "../src/sandbox/adf/adf-to-wiki.ts";
import type { AdfDocument } from "../src/sandbox/adf/types.ts";
import { DEFAULT_BASE_URL } from "../src/sandbox/fixtures/default-site.ts";
import { tasksFor } from "../src/scenarios/frozen.ts";
import { SCENARIOS } from "../src/scenarios/index.ts";
import { type RunningGymServer, startGymServer } from "../src/server/start-gym-server.ts";
import { defaultTools } from "../src/tools/catalogue.ts";
import type { Tool } from "../src/tools/define-tool.ts";
import { api } from "./support/json-api.ts";
import { restRequestFor } from "./support/rest-request.ts";

let server: RunningGymServer;
beforeAll(async () => {
  server = await startGymServer({ port: 0, seed: 1 });
});
afterAll(() => server.close());

type Request = { method: string; path: string; body?: string };
type Json = Record<string, unknown>;

/** Translates v3 / Confluence v2 requests to v2 / v1 ones, learning space keys from v1 answers. */
class OtherSurface {
  readonly spaceKeys = new Map<string, string>();

  request(tool: Tool, args: Record<string, unknown>): Request {
    const op = tool.operation;
    const { params, body } = tool.toInput(args) as { params: Json; body?: Json };
    const original = restRequestFor(tool, args);
    if (op.path.startsWith("/rest/api/3/"))
      return {
        ...original,
        path: original.path.replace("/rest/api/3/", "/rest/api/2/"),
        body: body === undefined ? original.body : JSON.stringify(adfToWikiDeep(body)),
      };
    switch (op.operationId) {
      case "getSpaces":
        if (Array.isArray(params.keys) || typeof params.keys === "string")
          return { method: "GET", path: `/wiki/rest/api/space?spaceKey=${[params.keys].flat().join(",")}` };
        return original;
      case "getPageById":
        return {
          method: "GET",
          path: `/wiki/rest/api/content/${params.id}?expand=body.storage,version,space`,
        };
      case "getChildPages":
        return { method: "GET", path: `/wiki/rest/api/content/${params.id}/child/page?limit=100` };
      case "getPages": {
        const spaceIds = [params["space-id"] ?? []].flat().map(String);
        const key = spaceIds.length === 1 ? this.spaceKeys.get(spaceIds[0]!) : undefined;
        if (!key) return original;
        const query = new URLSearchParams({ spaceKey: key, limit: "100", expand: "version,ancestors" });
        if (typeof params.title === "string") query.set("title", params.title);
        return { method: "GET", path: `/wiki/rest/api/content?${query}` };
      }
      case "createPage": {
        const key = this.spaceKeys.get(String(body!.spaceId));
        if (!key) return original;
        return {
          method: "POST",
          path: "/wiki/rest/api/content",
          body: JSON.stringify({
            type: "page",
            title: body!.title,
            space: { key },
            ...(body!.parentId ? { ancestors: [{ id: String(body!.parentId) }] } : {}),
            ...v1Body(body!.body),
          }),
        };
      }
      case "updatePage":
        return {
          method: "PUT",
          path: `/wiki/rest/api/content/${params.id}`,
          body: JSON.stringify({
            type: "page",
            title: body!.title,
            ...(body!.status ? { status: body!.status } : {}),
            ...(body!.parentId ? { ancestors: [{ id: String(body!.parentId) }] } : {}),
            version: body!.version,
            ...v1Body(body!.body),
          }),
        };
      default:
        return original;
    }
  }

  learn(answer: unknown): void {
    const found = (answer as { results?: unknown[] } | null)?.results ?? [answer];
    for (const item of found) {
      const space = item as { id?: unknown; key?: unknown; _links?: { self?: string } } | null;
      if (space?._links?.self?.startsWith("/rest/api/space/") && typeof space.key === "string")
        this.spaceKeys.set(String(space.id), space.key);
    }
  }
}

/** A v2 page body (`{representation, value}`) as v1's `body: {<representation>: {...}}`; none when absent. */
function v1Body(written: unknown): { body?: Json } {
  const b = written as { representation: string; value: string } | undefined;
  return b ? { body: { [b.representation]: { value: b.value, representation: b.representation } } } : {};
}

function adfToWikiDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(adfToWikiDeep);
  if (typeof value !== "object" || value === null) return value;
  const v = value as Json;
  if (v.type === "doc" && v.version === 1 && Array.isArray(v.content))
    return adfToWiki(v as unknown as AdfDocument);
  return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, adfToWikiDeep(item)]));
}

async function play(taskId: string, surface: "native" | "other") {
  const session = (await api(server.url, "POST", "/v1/sessions", { task_id: taskId })).body;
  const [scenarioId, split, index] = taskId.split("/") as [string, "eval", string];
  const scenario = SCENARIOS.find((s) => s.id === scenarioId)!;
  const task = tasksFor(scenario, split, 1, Number(index))[0]!;
  const tools = defaultTools();
  const other = new OtherSurface();
  const { calls, final } = recordReference(scenario, task);
  const paths: string[] = [];
  for (const call of calls) {
    const tool = tools.get(call.name)!;
    const args = call.arguments as Record<string, unknown>;
    const request = surface === "native" ? restRequestFor(tool, args) : other.request(tool, args);
    // The reference was recorded on an episode served at the default base URL; over REST the site's
    // links start with the session's base URL, and an agent would use those.
    request.body = request.body?.replaceAll(DEFAULT_BASE_URL, session.rest_base_url);
    paths.push(`${request.method} ${request.path.split("?")[0]}`);
    const response = await fetch(`${session.rest_base_url}${request.path}`, {
      method: request.method,
      headers: request.body ? { "content-type": "application/json" } : {},
      body: request.body,
    });
    const text = await response.text();
    expect(response.status, `${request.method} ${request.path}: ${text}`).toBeLessThan(300);
    other.learn(text ? JSON.parse(text) : null);
  }
  const trace = (await api(server.url, "GET", `/v1/sessions/${session.session_id}/trace`)).body;
  const score = (
    await api(server.url, "POST", `/v1/sessions/${session.session_id}/score`, { final_message: final })
  ).body;
  return {
    paths,
    operations: trace.calls.map((c: { operation_id: string }) => c.operation_id),
    reward: score.reward,
    passed: score.passed,
    violations: score.violations,
  };
}

describe("the same reward through Jira v2 and Confluence v1 as through v3 / v2", () => {
  const cases = SCENARIOS.flatMap((s) => [0, 1].map((i) => `${s.id}/eval/${i}`));
  it.each(cases)("%s", async (taskId) => {
    const native = await play(taskId, "native");
    const other = await play(taskId, "other");
    expect(native.reward).toBe(1);
    // The other surfaces were really used...
    expect(other.paths.some((p) => p.includes("/rest/api/2/") || p.includes("/wiki/rest/api/"))).toBe(true);
    const writes = other.paths.filter((p) => !p.startsWith("GET "));
    expect(writes.length).toBeGreaterThan(0);
    for (const write of writes)
      expect(write).toMatch(
        / \/s\/[^/]+\/(rest\/api\/2|wiki\/rest\/api)\/| \/(rest\/api\/2|wiki\/rest\/api)\//,
      );
    // ...and recorded under the same operations, for the same reward.
    expect(other.operations).toEqual(native.operations);
    expect({ reward: other.reward, passed: other.passed, violations: other.violations }).toEqual({
      reward: native.reward,
      passed: native.passed,
      violations: native.violations,
    });
  });
});
