/**
 * Test helper: runs an operation on a site exactly as every surface does (executeOperation) and fails
 * the test if the answer does not conform to the spec's response schema for its status code.
 */
import { executeOperation, type OperationResult } from "../../src/sandbox/execute.ts";
import { AGENT_ACCOUNT_ID } from "../../src/sandbox/fixtures/default-site.ts";
import { findOperation } from "../../src/sandbox/operations.ts";
import type { Site } from "../../src/sandbox/site.ts";
import { responseViolations } from "./spec-contract.ts";

export const TEST_BASE_URL = "http://sim.test";

export function call(
  site: Site,
  operationId: string,
  params: Record<string, unknown> = {},
  body?: unknown,
): OperationResult {
  const op = findOperation(operationId);
  if (!op) throw new Error(`Unknown operation ${operationId}`);
  const result = executeOperation(
    site,
    op,
    { params, body },
    { baseUrl: TEST_BASE_URL, accountId: AGENT_ACCOUNT_ID },
  );
  const violations = responseViolations(op, result.status, result.body);
  if (violations)
    throw new Error(
      `${operationId} answered ${result.status} with a body that violates the spec: ${violations}`,
    );
  return result;
}
