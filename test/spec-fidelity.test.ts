/**
 * Every implemented operation exists in Atlassian's published OpenAPI documents with the same
 * operationId, method and path.
 */
import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../src/sandbox/operations.ts";
import { findSpecOperation, specPath } from "./support/spec-contract.ts";

describe("operations match the official OpenAPI documents", () => {
  it.each(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op] as const))("%s", (_name, op) => {
    const spec = findSpecOperation(op);
    expect(spec, `${op.method} ${specPath(op)} is not in the ${op.api} spec`).toBeDefined();
    expect(spec?.operationId).toBe(op.operationId);
  });

  it("operation ids are unique", () => {
    const ids = OPERATIONS.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
