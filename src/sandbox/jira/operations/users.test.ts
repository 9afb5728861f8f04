import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { AGENT_ACCOUNT_ID, createSite } from "../../fixtures/default-site.ts";
import { ASSIGNABLE_NO_SCOPE, FIND_USERS_BOTH, FIND_USERS_NO_CRITERIA } from "./users.ts";

type User = { accountId: string; displayName: string; active: boolean };
const names = (body: unknown) => (body as User[]).map((u) => u.displayName);

describe("findUsers", () => {
  const site = createSite({ seed: 1 });

  it("matches the start of any word of the display name, ignoring case", () => {
    expect(names(call(site, "findUsers", { query: "chen" }).body)).toEqual(["Alex Chen", "Alexa Chen"]);
    expect(names(call(site, "findUsers", { query: "ALEXA" }).body)).toEqual(["Alexa Chen"]);
    expect(names(call(site, "findUsers", { query: "sam" }).body)).toEqual(["Sam Rivera", "Samantha Rivera"]);
    expect(names(call(site, "findUsers", { query: "jordan le" }).body)).toEqual([
      "Jordan Lee",
      "Jordan Leigh",
    ]);
    expect(names(call(site, "findUsers", { query: "hen" }).body)).toEqual([]);
  });

  it("matches the start of the email address", () => {
    expect(names(call(site, "findUsers", { query: "priya.n" }).body)).toEqual(["Priya Natarajan"]);
  });

  it("leaves inactive users out of query results", () => {
    expect(names(call(site, "findUsers", { query: "tom" }).body)).toEqual([]);
  });

  it("looks up an exact accountId", () => {
    const [alex] = call(site, "findUsers", { query: "alex chen" }).body as User[];
    const res = call(site, "findUsers", { accountId: alex!.accountId });
    expect(names(res.body)).toEqual(["Alex Chen"]);
    expect(call(site, "findUsers", { accountId: "nobody" }).body).toEqual([]);
  });

  it("matches an exact accountId given as the query (as Cloud does), not a prefix of one", () => {
    const [alex] = call(site, "findUsers", { query: "alex chen" }).body as User[];
    expect(names(call(site, "findUsers", { query: alex!.accountId }).body)).toEqual(["Alex Chen"]);
    expect(call(site, "findUsers", { query: alex!.accountId.slice(0, -1) }).body).toEqual([]);
  });

  it("pages with startAt and maxResults", () => {
    expect(names(call(site, "findUsers", { query: "a", startAt: "1", maxResults: "1" }).body)).toHaveLength(
      1,
    );
  });

  it("answers 400 when neither or both of query and accountId are given", () => {
    const hash = site.hash();
    expect(call(site, "findUsers", {}).body).toEqual({ errorMessages: [FIND_USERS_NO_CRITERIA], errors: {} });
    const both = call(site, "findUsers", { query: "a", accountId: AGENT_ACCOUNT_ID });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ errorMessages: [FIND_USERS_BOTH], errors: {} });
    expect(site.hash()).toBe(hash);
  });
});

describe("findAssignableUsers", () => {
  const site = createSite({ seed: 1 });

  it("lists active users for a project, filtered by query", () => {
    const all = call(site, "findAssignableUsers", { project: "ENG" }).body as User[];
    expect(all.every((u) => u.active)).toBe(true);
    expect(names(all)).not.toContain("Tom Brennan");
    expect(names(all)).toContain("Atlas Agent");
    expect(names(call(site, "findAssignableUsers", { project: "ENG", query: "riv" }).body)).toEqual([
      "Sam Rivera",
      "Samantha Rivera",
    ]);
  });

  it("accepts an issue key or id instead of a project", () => {
    expect(names(call(site, "findAssignableUsers", { issueKey: "eng-1", query: "mei" }).body)).toEqual([
      "Mei Tanaka",
    ]);
    expect(names(call(site, "findAssignableUsers", { issueId: "10000", query: "mei" }).body)).toEqual([
      "Mei Tanaka",
    ]);
  });

  it("answers errors for a missing scope, an unknown project and an unknown issue", () => {
    const hash = site.hash();
    const none = call(site, "findAssignableUsers", { query: "a" });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ errorMessages: [ASSIGNABLE_NO_SCOPE], errors: {} });
    const project = call(site, "findAssignableUsers", { project: "NOPE" });
    expect(project.status).toBe(404);
    expect(project.body).toEqual({
      errorMessages: ["No project could be found with key 'NOPE'."],
      errors: {},
    });
    const issue = call(site, "findAssignableUsers", { issueKey: "ENG-9999" });
    expect(issue.status).toBe(404);
    expect(issue.body).toEqual({
      errorMessages: ["Issue does not exist or you do not have permission to see it."],
      errors: {},
    });
    expect(site.hash()).toBe(hash);
  });
});

describe("getCurrentUser", () => {
  it("returns the caller", () => {
    const site = createSite({ seed: 1 });
    const res = call(site, "getCurrentUser", {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      accountId: AGENT_ACCOUNT_ID,
      displayName: "Atlas Agent",
      emailAddress: "agent@example.com",
      active: true,
      self: `http://sim.test/rest/api/3/user?accountId=${AGENT_ACCOUNT_ID}`,
    });
  });
});
