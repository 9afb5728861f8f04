/**
 * The registry of every simulated operation. REST routes, agent tools and MCP tools are all generated
 * from this list; adding an operation here is what exposes it everywhere.
 */
import type { Operation } from "./define-operation.ts";
import { getIssue } from "./jira/operations/issues.ts";

export const OPERATIONS: readonly Operation[] = [getIssue];

const BY_ID = new Map(OPERATIONS.map((op) => [op.operationId, op]));

export function findOperation(operationId: string): Operation | undefined {
  return BY_ID.get(operationId);
}
