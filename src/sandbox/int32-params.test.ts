/**
 * Offsets and page sizes are int32 in the published documents: a value past that is refused in the
 * vendor's shape, never echoed back as an answer the document's own schema would reject. And a number
 * is a number: a string of one is read (every query parameter arrives as a string), but `true`, null or
 * a list in a JSON body is refused, as the vendor's JSON reader refuses them, not read as 1 or 0.
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

describe("integer parameters and body fields", () => {
  const search = (maxResults: unknown) =>
    call(site, "searchAndReconsileIssuesUsingJqlPost", {}, { jql: "project = ENG", maxResults });

  it.each([[true], [false], [[]], [{}]])("a body's maxResults of %j is refused", (value) => {
    const answer = search(value);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ errors: { maxResults: expect.stringContaining("expected number") } });
  });

  it("reads a number, or a string of one, as the page size, and null as the default (a boxed Integer)", () => {
    const pageOf = (value: unknown) => (search(value).body as { issues: unknown[] }).issues.length;
    expect([pageOf(2), pageOf("2")]).toStrictEqual([2, 2]);
    expect(pageOf(null)).toBe(pageOf(undefined));
    expect(pageOf(null)).toBeGreaterThan(2);
  });

  it.each([["0x10"], ["1e3"], ["Infinity"], ["12abc"]])("refuses %j, no decimal number", (value) => {
    const answer = call(site, "getComments", { issueIdOrKey: "ENG-1", maxResults: value });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ errorMessages: ["Parameter 'maxResults': must be a number"], errors: {} });
  });

  it("reads the first of a repeated query parameter, as Jira does", () => {
    const answer = call(site, "getComments", { issueIdOrKey: "ENG-1", maxResults: ["1", "7"] });
    expect(answer.status).toBe(200);
    expect((answer.body as { maxResults: number }).maxResults).toBe(1);
  });
});
