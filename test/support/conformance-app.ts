/**
 * An in-process REST facade for surface tests: requests go through the real Hono app (no socket), every
 * answer a route gives (an operation, or a v2/v1 presentation of one) is checked against its surface's
 * spec, and the routes that answered are remembered. Tests assert at the end that `violations` is empty.
 */
import { createRestApp } from "../../src/http/create-rest-app.ts";
import { createSiteRegistry } from "../../src/http/site-registry.ts";
import { responseViolations } from "./spec-contract.ts";

export function createConformanceApp(siteId: string) {
  const violations: string[] = [];
  const seen = new Set<string>();
  const app = createRestApp({
    sites: createSiteRegistry(1),
    observe: (op, _result, { endpoint, answer }) => {
      if (!answer) return;
      seen.add(`${endpoint.method} ${endpoint.path} -> ${op.operationId}`);
      const problem = responseViolations(endpoint, answer.status, answer.body);
      if (problem) violations.push(`${endpoint.method} ${endpoint.path} ${answer.status}: ${problem}`);
    },
  });

  /** One request on the isolated site `/s/<siteId>`, its JSON answer parsed. */
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked by the assertions
  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const res = await app.request(`http://sim.test/s/${siteId}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  return { call, violations, seen };
}
