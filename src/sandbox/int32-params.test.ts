/**
 * Offsets and page sizes are int32 in the published documents: a value past that is refused in the
 * vendor's shape, never echoed back as an answer the document's own schema would reject.
 */
import { describe, expect, it } from "vitest";
import { call } from "../../test/support/call.ts";
import { createSite } from "./fixtures/default-site.ts";

const site = createSite({ seed: 1 });
const TOO_BIG = "2147483648";

describe("int32 paging parameters", () => {
  it.each([
    ["getComments", { issueIdOrKey: "ENG-1", maxResults: TOO_BIG }],
    ["getComments", { issueIdOrKey: "ENG-1", startAt: TOO_BIG }],
    ["getChangeLogs", { issueIdOrKey: "ENG-1", startAt: TOO_BIG }],
    ["searchUser", { cql: "type=user", start: TOO_BIG }],
  ])("%s refuses %j with a 400", (operationId, params) => {
    const before = site.hash();
    const answer = call(site, operationId, params);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain("32-bit integer");
    expect(site.hash()).toBe(before);
  });

  it("takes the largest int32 as it is", () => {
    const answer = call(site, "getComments", { issueIdOrKey: "ENG-1", maxResults: "2147483647" });
    expect(answer.status).toBe(200);
    expect((answer.body as { maxResults: number }).maxResults).toBe(2147483647);
  });
});
