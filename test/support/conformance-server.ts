/**
 * A running `atlas-gym serve` equivalent for client tests: the real HTTP server on a loopback port,
 * with every answer a route gives (an operation, or a v2/v1 presentation of one) checked against the spec's response schema. Tests assert at the
 * end that no answer violated the contract.
 */
import { startServer } from "../../src/http/start-server.ts";
import { responseViolations } from "./spec-contract.ts";

export async function startConformanceServer(seed: number) {
  const violations: string[] = [];
  const seen = new Set<string>();
  const server = await startServer({
    port: 0,
    seed,
    observe(_op, _result, { endpoint, answer }) {
      if (!answer) return;
      const name = `${endpoint.method} ${endpoint.path}`;
      seen.add(`${endpoint.operationId} ${answer.status}`);
      const problem = responseViolations(endpoint, answer.status, answer.body);
      if (problem) violations.push(`${name} ${answer.status}: ${problem}`);
    },
  });
  return { ...server, violations, seen };
}
