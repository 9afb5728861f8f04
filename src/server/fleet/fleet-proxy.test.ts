/** The fleet router's own errors (pure: no processes): each in the shape of the surface the client called. */

import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { forwardedHeaders, routerError } from "./fleet-proxy.ts";

const body = (path: string, request: unknown = null, status = 503) =>
  JSON.parse(
    routerError(
      { path, body: request === null ? null : Buffer.from(JSON.stringify(request)) },
      status,
      "worker_unavailable",
      "down",
    ).body.toString(),
  );

describe("fleet router errors", () => {
  it("answers the env server's surfaces with {error, code}", () => {
    for (const path of ["/v1/sessions/ses-w1-x/score", "/v1/scenarios?x=1", "/health"])
      expect(body(path), path).toEqual({ error: "down", code: "worker_unavailable" });
  });

  it("answers REST in the vendor's shape: Jira, Confluence v2 and v1, at the root and on a site", () => {
    const jira = { errorMessages: ["down"], errors: {} };
    expect(body("/rest/api/3/issue/ENG-1")).toEqual(jira);
    expect(body("/s/ses-w1-x/rest/api/2/search?jql=x")).toEqual(jira);
    expect(body("/%73/ses-w1-x/rest/api/3/myself")).toEqual(jira);
    const v2 = { errors: [{ status: 503, code: "ERROR", title: "down", detail: null }] };
    expect(body("/wiki/api/v2/pages/1")).toEqual(v2);
    expect(body("/s/site/wiki/api/v2/spaces")).toEqual(v2);
    expect(body("/wiki/rest/api/content", null, 502)).toMatchObject({
      statusCode: 502,
      message: "down",
      data: { successful: false },
    });
  });

  it("answers /mcp with a JSON-RPC error carrying the request's id", () => {
    const rpc = (id: unknown) => ({ jsonrpc: "2.0", error: { code: -32000, message: "down" }, id });
    expect(body("/mcp?session=ses-w1-x", { jsonrpc: "2.0", id: 7, method: "tools/list" })).toEqual(rpc(7));
    expect(body("/mcp", { jsonrpc: "2.0", id: "a", method: "ping" })).toEqual(rpc("a"));
    expect(body("/mcp", [{ jsonrpc: "2.0", id: 1, method: "ping" }])).toEqual(rpc(null));
    expect(body("/mcp")).toEqual(rpc(null));
    // A refusal carries -32001, as a single server's gate answers one.
    expect(body("/mcp", null, 403)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32001, message: "down" },
      id: null,
    });
  });

  it("forwards every Authorization value a request carried (node keeps only the first)", () => {
    const twice = {
      headers: { authorization: "Bearer right", host: "h" },
      headersDistinct: { authorization: ["Bearer right", "Bearer wrong"], host: ["h"] },
    } as unknown as IncomingMessage;
    expect(forwardedHeaders(twice)).toEqual({ authorization: "Bearer right, Bearer wrong", host: "h" });
    const once = {
      headers: { authorization: "Bearer right" },
      headersDistinct: { authorization: ["Bearer right"] },
    };
    expect(forwardedHeaders(once as unknown as IncomingMessage)).toBe(once.headers);
  });

  it("keeps the status and extra headers", () => {
    const answer = routerError({ path: "/rest/api/3/myself", body: null }, 503, "x", "down", {
      "retry-after": "1",
    });
    expect(answer.status).toBe(503);
    expect(answer.headers).toMatchObject({ "content-type": "application/json", "retry-after": "1" });
  });
});
