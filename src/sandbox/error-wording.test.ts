/**
 * What a request that does not fit an operation's schema is told: the vendor's shape, and words a client
 * can act on rather than the validator's (a missing body, an unknown field, a parameter that is not a
 * number, as when one is repeated).
 */
import { describe, expect, it } from "vitest";
import { call } from "../../test/support/call.ts";
import { createSite } from "./fixtures/default-site.ts";

const site = createSite({ seed: 1 });

describe("the wording of a 400 for input that does not fit", () => {
  it("names a missing body as Jira's JSON reader does", () => {
    expect(call(site, "createIssue", {}, undefined).body).toEqual({
      errorMessages: ["No content to map to Object due to end of input"],
      errors: {},
    });
  });

  it("names an unknown field of a body", () => {
    const answer = call(
      site,
      "searchAndReconsileIssuesUsingJqlPost",
      {},
      { jql: "project = ENG", startAt: 1 },
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      errorMessages: ['Unrecognized field "startAt", not marked as ignorable'],
      errors: {},
    });
  });

  it("says a parameter must be a number, in each dialect", () => {
    const jira = call(site, "getComments", { issueIdOrKey: "ENG-1", startAt: "ten" });
    expect(jira.body).toEqual({ errorMessages: ["Parameter 'startAt': must be a number"], errors: {} });
    const space = [...site.values("spaces")][0]!;
    const wiki = call(site, "getPagesInSpace", { id: space.id, limit: "ten" });
    expect(wiki.status).toBe(400);
    expect(JSON.stringify(wiki.body)).toContain("Invalid parameter: 'limit' must be a number");
  });
});
