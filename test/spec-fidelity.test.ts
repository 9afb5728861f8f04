/**
 * Every implemented operation, and every presentation of one (Jira v2, Confluence v1 content), exists in Atlassian's published OpenAPI documents with the same
 * operationId, method and path.
 */
import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../src/sandbox/operations.ts";
import { PRESENTATIONS } from "../src/sandbox/presentations.ts";
import { findSpecOperation, specPath } from "./support/spec-contract.ts";

describe("operations match the official OpenAPI documents", () => {
  it.each(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op] as const))("%s", (_name, op) => {
    const spec = findSpecOperation(op);
    expect(spec, `${op.method} ${specPath(op)} is not in the ${op.api} spec`).toBeDefined();
    expect(spec?.operationId).toBe(op.operationId);
  });

  it.each(PRESENTATIONS.map((p) => [`${p.method} ${p.path}`, p] as const))(
    "presentation %s",
    (_name, presentation) => {
      const spec = findSpecOperation(presentation);
      expect(spec, `${presentation.method} ${presentation.path} is not in its spec`).toBeDefined();
      expect(spec?.operationId).toBe(presentation.operationId);
    },
  );

  it("every Jira v3 operation is also served under /rest/api/2 as the same operation", () => {
    const v2 = PRESENTATIONS.filter((p) => p.path.startsWith("/rest/api/2/"));
    for (const op of OPERATIONS.filter((o) => o.path.startsWith("/rest/api/3/"))) {
      const presented = v2.find(
        (p) => p.operation === op && p.path === op.path.replace("/rest/api/3/", "/rest/api/2/"),
      );
      expect(presented?.operationId, op.operationId).toBe(op.operationId);
    }
  });

  it("operation ids are unique", () => {
    const ids = OPERATIONS.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
