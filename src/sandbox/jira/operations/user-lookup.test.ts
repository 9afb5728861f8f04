import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { jiraTime } from "../../clock.ts";
import { createSite } from "../../fixtures/default-site.ts";
import { CLOUD_VERSION } from "./server-info.ts";
import { ACCOUNT_ID_REQUIRED, USER_NOT_FOUND } from "./user-lookup.ts";

const site = createSite({ seed: 1 });
type User = { accountId: string; displayName: string; active: boolean; accountType: string };

describe("getServerInfo and getFields", () => {
  it("reports a Cloud site at the caller's base URL, with the site clock as serverTime", () => {
    const info = call(site, "getServerInfo").body as Record<string, unknown>;
    expect(info).toMatchObject({
      baseUrl: "http://sim.test",
      deploymentType: "Cloud",
      versionNumbers: CLOUD_VERSION.numbers,
      serverTime: jiraTime(site.now()),
    });
  });

  it("lists the modelled system fields with clause names that resolve JQL names to ids", () => {
    const fields = call(site, "getFields").body as { id: string; clauseNames: string[]; schema?: object }[];
    const byClause = new Map(fields.flatMap((f) => f.clauseNames.map((c) => [c, f.id] as const)));
    expect(byClause.get("type")).toBe("issuetype");
    expect(byClause.get("key")).toBe("issuekey");
    expect(fields.find((f) => f.id === "labels")?.schema).toEqual({
      type: "array",
      items: "string",
      system: "labels",
    });
    expect(new Set(fields.map((f) => f.id)).size).toBe(fields.length);
  });
});

describe("getUser", () => {
  const anyone = [...site.values("users")][0]!;

  it("returns the user a self link names, with groups and application roles", () => {
    const user = call(site, "getUser", { accountId: anyone.accountId }).body as Record<string, unknown>;
    expect(user).toMatchObject({ accountId: anyone.accountId, displayName: anyone.displayName });
    expect(user.self).toBe(`http://sim.test/rest/api/3/user?accountId=${anyone.accountId}`);
  });

  it("answers 400 without an accountId and 404 for an unknown one", () => {
    expect(call(site, "getUser", {}).body).toEqual({ errorMessages: [ACCOUNT_ID_REQUIRED], errors: {} });
    expect(call(site, "getUser", { accountId: "nope" })).toMatchObject({
      status: 404,
      body: { errorMessages: [USER_NOT_FOUND] },
    });
  });
});

describe("findUsersWithAllPermissions", () => {
  it("lists active human users, filtered by query, paged", () => {
    const all = call(site, "findUsersWithAllPermissions", {
      permissions: "BROWSE_PROJECTS",
      projectKey: "ENG",
    }).body as User[];
    expect(all.length).toBeGreaterThan(2);
    expect(all.every((u) => u.active && u.accountType === "atlassian")).toBe(true);
    const page = call(site, "findUsersWithAllPermissions", {
      permissions: ["BROWSE_PROJECTS", "ASSIGNABLE_USER"],
      startAt: 1,
      maxResults: 2,
    }).body as User[];
    expect(page.map((u) => u.accountId)).toEqual(all.slice(1, 3).map((u) => u.accountId));
    const chen = call(site, "findUsersWithAllPermissions", { permissions: "BROWSE_PROJECTS", query: "chen" })
      .body as User[];
    expect(chen.map((u) => u.displayName)).toEqual(["Alex Chen", "Alexa Chen"]);
  });

  it("rejects unknown permission keys and unknown projects or issues", () => {
    expect(call(site, "findUsersWithAllPermissions", { permissions: "BROWSE_PROJECTS,FLY" }).body).toEqual({
      errorMessages: ["Unrecognized permission: FLY"],
      errors: {},
    });
    expect(
      call(site, "findUsersWithAllPermissions", { permissions: "BROWSE_PROJECTS", projectKey: "NOPE" })
        .status,
    ).toBe(404);
    expect(
      call(site, "findUsersWithAllPermissions", { permissions: "BROWSE_PROJECTS", issueKey: "ENG-999" })
        .status,
    ).toBe(404);
  });
});
