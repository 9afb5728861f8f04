/**
 * A running `atlas-gym serve` equivalent for client tests: the real HTTP server on a loopback port,
 * with every answer an operation gives checked against the spec's response schema. Tests assert at the
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
    observe(op, result) {
      seen.add(`${op.operationId} ${result.status}`);
      const problem = responseViolations(op, result.status, result.body);
      if (problem) violations.push(`${op.operationId} ${result.status}: ${problem}`);
    },
  });
  return { ...server, violations, seen };
}
