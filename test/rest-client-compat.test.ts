/**
 * What the Python clients at default settings call beyond the v3 operations' own paths: the plain-array
 * start-up lists (v2 and v3), `/rest/api/latest` as v2, user search by accountId, and Confluence v1
 * CQL content search; every answer validated against its surface's published document.
 */
import { describe, expect, it } from "vitest";
import { createConformanceApp } from "./support/conformance-app.ts";

const { call, violations, seen } = createConformanceApp("c");

describe("plain-array lists (v2 and v3)", () => {
  it("lists every project, as searchProjects does, with expansions", async () => {
    const search = await call("GET", "/rest/api/3/project/search");
    const keys = search.body.values.map((p: { key: string }) => p.key);
    for (const version of ["2", "3"]) {
      const all = await call("GET", `/rest/api/${version}/project?expand=lead`);
      expect(all.status).toBe(200);
      expect(all.body.map((p: { key: string }) => p.key)).toEqual(keys);
      expect(all.body[0].self).toContain(`/rest/api/${version}/project/`);
      expect(all.body[0].lead.accountId).toEqual(expect.any(String));
    }
    expect((await call("GET", "/rest/api/3/project?recent=1")).body).toHaveLength(1);
    expect((await call("GET", "/rest/api/3/project?recent=x")).status).toBe(400);
  });

  it("lists priorities, issue types and statuses", async () => {
    const priorities = (await call("GET", "/rest/api/2/priority")).body;
    expect(priorities.map((p: { name: string }) => p.name)).toContain("Medium");
    const types = (await call("GET", "/rest/api/2/issuetype")).body;
    const eng = (await call("GET", "/rest/api/3/project/ENG")).body;
    expect(
      types
        .filter((t: { scope: { project: { id: string } } }) => t.scope.project.id === eng.id)
        .map((t: { id: string }) => t.id),
    ).toEqual(eng.issueTypes.map((t: { id: string }) => t.id));
    const statuses = (await call("GET", "/rest/api/3/status")).body;
    expect(statuses.map((s: { name: string }) => s.name)).toContain("Done");
    expect(statuses[0].statusCategory.key).toEqual(expect.any(String));
  });
});

describe("/rest/api/latest is v2; user search matches an exact accountId", () => {
  it("assigns as pycontribs does: user search by accountId, then PUT latest/.../assignee", async () => {
    const priya = (await call("GET", "/rest/api/3/user/search?query=priya")).body[0];
    const found = await call("GET", `/rest/api/latest/user/search?query=${priya.accountId}`);
    expect(found.status).toBe(200);
    expect(found.body.map((u: { accountId: string }) => u.accountId)).toEqual([priya.accountId]);
    expect(found.body[0].self).toContain("/rest/api/2/user?accountId=");
    const put = await call("PUT", "/rest/api/latest/issue/ENG-2/assignee", { accountId: priya.accountId });
    expect(put.status).toBe(204);
    const v3 = await call("GET", "/rest/api/3/issue/ENG-2?fields=assignee,description");
    expect(v3.body.fields.assignee.accountId).toBe(priya.accountId);
    const latest = await call("GET", "/rest/api/latest/issue/ENG-2?fields=description");
    expect(latest.body.fields.description ?? "").toEqual(expect.any(String));
    const missing = await call("GET", "/rest/api/latest/nowhere");
    expect(missing.status).toBe(404);
    expect(missing.body.errorMessages).toEqual(["No API operation matches GET /s/c/rest/api/latest/nowhere"]);
  });
});

describe("Confluence v1 content search by CQL", () => {
  it("answers the CQL search's pages as v1 Content with expand, not as content/{id}", async () => {
    const cql = 'type=page AND space="ENG"';
    const v1 = (await call("GET", `/wiki/rest/api/search?cql=${encodeURIComponent(cql)}&limit=100`)).body;
    const ids = v1.results.map((r: { content: { id: string } }) => r.content.id);
    const found = await call(
      "GET",
      `/wiki/rest/api/content/search?cql=${encodeURIComponent(cql)}&limit=100&expand=space,version,body.storage`,
    );
    expect(found.status).toBe(200);
    expect(found.body.results.map((c: { id: string }) => c.id)).toEqual(ids);
    expect(found.body.results[0]).toMatchObject({
      type: "page",
      space: { key: "ENG" },
      version: { number: expect.any(Number) },
      body: { storage: { representation: "storage", value: expect.any(String) } },
    });
    const parent = found.body.results[0].id;
    const children = await call(
      "GET",
      `/wiki/rest/api/content/search?cql=${encodeURIComponent(`parent=${parent}`)}`,
    );
    const v2Children = (await call("GET", `/wiki/api/v2/pages/${parent}/children`)).body.results;
    expect(v2Children.length).toBeGreaterThan(0);
    expect(children.body.results.map((c: { title: string }) => c.title).sort()).toEqual(
      v2Children.map((c: { title: string }) => c.title).sort(),
    );
    const bad = await call("GET", `/wiki/rest/api/content/search?cql=${encodeURIComponent("title ~")}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ statusCode: 400, message: expect.any(String) });
  });
});

describe("contracts", () => {
  it("every answer above conforms to its surface's document", () => {
    expect(violations).toEqual([]);
    expect(seen).toContain("GET /rest/api/2/project -> getAllProjects");
    expect(seen).toContain("GET /rest/api/3/status -> getStatuses");
    expect(seen).toContain("GET /wiki/rest/api/content/search -> searchByCQL");
    expect(seen).toContain("PUT /rest/api/2/issue/{issueIdOrKey}/assignee -> assignIssue");
  });
});
