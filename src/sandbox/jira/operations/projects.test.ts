import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { createSite } from "../../fixtures/default-site.ts";

type Bean = Record<string, unknown>;

describe("getProject", () => {
  const site = createSite({ seed: 1 });

  it("returns the full project with lead, issue types and defaults", () => {
    const res = call(site, "getProject", { projectIdOrKey: "ENG" });
    expect(res.status).toBe(200);
    const body = res.body as Bean & { lead: Bean; issueTypes: Bean[] };
    expect(body).toMatchObject({
      id: "10000",
      key: "ENG",
      name: "Engineering Platform",
      self: "http://sim.test/rest/api/3/project/10000",
      projectTypeKey: "software",
      style: "classic",
      simplified: false,
      assigneeType: "PROJECT_LEAD",
    });
    expect(body.description).toBe("Shared services, CI and developer tooling.");
    expect(body.lead.accountId).toEqual(expect.any(String));
    expect(body.issueTypes.map((t) => t.name)).toEqual(["Epic", "Task", "Story", "Bug", "Sub-task"]);
    expect(body.avatarUrls).toHaveProperty("48x48");
  });

  it("finds a project by numeric id", () => {
    expect((call(site, "getProject", { projectIdOrKey: "10000" }).body as Bean).key).toBe("ENG");
  });

  it("lists only the project's own issue types", () => {
    const eng = call(site, "getProject", { projectIdOrKey: "ENG" }).body as { issueTypes: Bean[] };
    const ops = call(site, "getProject", { projectIdOrKey: "OPS" }).body as { issueTypes: Bean[] };
    const engIds = new Set(eng.issueTypes.map((t) => t.id));
    expect(ops.issueTypes.some((t) => engIds.has(t.id))).toBe(false);
  });

  it("answers an unknown key with Jira's 404 (keys are case sensitive)", () => {
    const hash = site.hash();
    for (const key of ["NOPE", "eng"]) {
      const res = call(site, "getProject", { projectIdOrKey: key });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        errorMessages: [`No project could be found with key '${key}'.`],
        errors: {},
      });
    }
    expect(call(site, "getProject", { projectIdOrKey: "99999" }).body).toEqual({
      errorMessages: ["No project could be found with id '99999'."],
      errors: {},
    });
    expect(site.hash()).toBe(hash);
  });
});

describe("searchProjects", () => {
  const site = createSite({ seed: 1 });
  const keys = (body: unknown) => (body as { values: Bean[] }).values.map((p) => p.key);

  it("pages projects ordered by key with self, nextPage and isLast", () => {
    const first = call(site, "searchProjects", { maxResults: "2" }).body as Bean;
    expect(first).toMatchObject({ startAt: 0, maxResults: 2, total: 4, isLast: false });
    expect(keys(first)).toEqual(["ENG", "MOB"]);
    expect(first.self).toBe("http://sim.test/rest/api/3/project/search?startAt=0&maxResults=2");
    expect(first.nextPage).toBe("http://sim.test/rest/api/3/project/search?startAt=2&maxResults=2");
    const last = call(site, "searchProjects", { startAt: 2, maxResults: 2 }).body as Bean;
    expect(keys(last)).toEqual(["OPS", "WEB"]);
    expect(last.isLast).toBe(true);
    expect(last).not.toHaveProperty("nextPage");
  });

  it("filters by query (key or name, any case) and by keys", () => {
    expect(keys(call(site, "searchProjects", { query: "platform" }).body)).toEqual(["ENG"]);
    expect(keys(call(site, "searchProjects", { query: "op" }).body)).toContain("OPS");
    expect(keys(call(site, "searchProjects", { keys: "WEB,ENG" }).body)).toEqual(["ENG", "WEB"]);
    expect(keys(call(site, "searchProjects", { keys: ["eng"] }).body)).toEqual([]);
  });

  it("orders descending and caps maxResults at 100", () => {
    expect(keys(call(site, "searchProjects", { orderBy: "-key" }).body)).toEqual([
      "WEB",
      "OPS",
      "MOB",
      "ENG",
    ]);
    expect((call(site, "searchProjects", { maxResults: 500 }).body as Bean).maxResults).toBe(100);
  });

  it("adds description, lead and issue types only when expanded", () => {
    const plain = (call(site, "searchProjects", {}).body as { values: Bean[] }).values[0]!;
    expect(plain).not.toHaveProperty("lead");
    expect(plain).not.toHaveProperty("description");
    const rich = (
      call(site, "searchProjects", { expand: "description,lead,issueTypes" }).body as { values: Bean[] }
    ).values[0]!;
    expect(rich).toHaveProperty("lead.accountId");
    expect(rich).toHaveProperty("description");
    expect(rich.issueTypes).toHaveLength(5);
  });

  it("rejects a bad orderBy with a 400 and changes nothing", () => {
    const hash = site.hash();
    const res = call(site, "searchProjects", { orderBy: "bogus" });
    expect(res.status).toBe(400);
    expect((res.body as { errorMessages: string[] }).errorMessages[0]).toMatch(/^Parameter 'orderBy'/);
    expect(site.hash()).toBe(hash);
  });
});
