/** The spec validator used by every suite really rejects non-conforming bodies (else it would prove nothing). */
import { describe, expect, it } from "vitest";
import { findOperation } from "../src/sandbox/operations.ts";
import { responseViolations } from "./support/spec-contract.ts";

describe("spec contract validator", () => {
  const getIssue = findOperation("getIssue")!;

  it("rejects an IssueBean whose id is a number", () => {
    expect(responseViolations(getIssue, 200, { id: 10000, key: "ENG-1", fields: {} })).toMatch(/id/);
  });

  it("accepts a minimal conforming IssueBean", () => {
    expect(
      responseViolations(getIssue, 200, {
        id: "10000",
        key: "ENG-1",
        self: "http://x/rest/api/3/issue/10000",
        fields: {},
      }),
    ).toBeNull();
  });
});
