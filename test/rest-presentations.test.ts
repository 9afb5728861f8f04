/**
 * The other API surfaces over REST, every answer validated against the published document for that
 * surface (Jira v2, Confluence v1 current or 2021): Jira v2's wiki-markup rich text and self links, the
 * endpoints clients call first (serverInfo, field, user, user/permission/search), and Confluence v1
 * content, spaces and user search as presentations of the v2 page and space operations.
 */
import { describe, expect, it } from "vitest";
import { createConformanceApp } from "./support/conformance-app.ts";

const { call, violations, seen } = createConformanceApp("t");

describe("Jira REST v2", () => {
  it("takes and gives rich text as wiki markup, stored as ADF", async () => {
    const created = await call("POST", "/rest/api/2/issue", {
      fields: {
        project: { key: "ENG" },
        issuetype: { name: "Task" },
        summary: "Wiki",
        description: "h2. Goal\nShip *it* with {{npm ci}}",
        environment: "# node 20",
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.self).toMatch(/\/s\/t\/rest\/api\/2\/issue\//);
    const v3 = await call("GET", `/rest/api/3/issue/${created.body.key}?fields=description,environment`);
    expect(v3.body.fields.description.content[0]).toEqual({
      type: "heading",
      attrs: { level: 2 },
      content: [{ type: "text", text: "Goal" }],
    });
    expect(v3.body.fields.environment.content[0].type).toBe("orderedList");
    const v2 = await call("GET", `/rest/api/2/issue/${created.body.key}?fields=description,environment`);
    expect(v2.body.fields).toEqual({
      description: "h2. Goal\n\nShip *it* with {{npm ci}}",
      environment: "# node 20",
    });
    const edited = await call("PUT", `/rest/api/2/issue/${created.body.key}`, {
      update: { description: [{ set: "_new_ text" }] },
    });
    expect(edited.status).toBe(204);
    const after = await call("GET", `/rest/api/2/issue/${created.body.key}?fields=description`);
    expect(after.body.fields.description).toBe("_new_ text");
    // v2 rich text is a string everywhere, a comment added through `update` too.
    const adf = { type: "doc", version: 1, content: [] };
    const refused = await call("PUT", `/rest/api/2/issue/${created.body.key}`, {
      update: { comment: [{ add: { body: adf } }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ comment: "Operation value must be a string" });
  });

  it("adds and lists comments as wiki markup; users' self links resolve", async () => {
    const added = await call("POST", "/rest/api/2/issue/ENG-2/comment", { body: "see [docs|https://x.io]" });
    expect(added.status).toBe(201);
    expect(added.body.body).toBe("see [docs|https://x.io]");
    const listed = await call("GET", "/rest/api/2/issue/ENG-2/comment");
    expect(listed.body.comments.at(-1).body).toBe("see [docs|https://x.io]");
    for (const self of [added.body.author.self, listed.body.comments[0].author.self]) {
      const user = await call("GET", String(self).replace("http://sim.test/s/t", ""));
      expect(user.status).toBe(200);
      expect(user.body.accountId).toBe(new URL(self).searchParams.get("accountId"));
    }
    const empty = await call("POST", "/rest/api/2/issue/ENG-2/comment", { body: "  " });
    expect(empty.status).toBe(400);
  });

  it("turns a [~accountid:<id>] mention into a mention node and gives it back as wiki markup", async () => {
    const [priya] = (await call("GET", "/rest/api/3/user/search?query=Priya")).body;
    const wiki = `[~accountid:${priya.accountId}] please review`;
    const added = await call("POST", "/rest/api/2/issue/ENG-2/comment", { body: wiki });
    expect(added.status).toBe(201);
    expect(added.body.body).toBe(wiki);
    const v3 = await call("GET", `/rest/api/3/issue/ENG-2/comment/${added.body.id}`);
    expect(v3.body.body.content[0].content).toEqual([
      { type: "mention", attrs: { id: priya.accountId, text: `@${priya.displayName}`, accessLevel: "" } },
      { type: "text", text: " please review" },
    ]);
    const edited = await call("PUT", "/rest/api/2/issue/ENG-2", {
      fields: { description: `h3. Owner\n[~accountid:${priya.accountId}]` },
    });
    expect(edited.status).toBe(204);
    const issue = await call("GET", "/rest/api/3/issue/ENG-2?fields=description");
    expect(issue.body.fields.description.content[1].content[0].attrs.id).toBe(priya.accountId);
  });

  it("searches with JQL and transitions like v3", async () => {
    const found = await call("GET", "/rest/api/2/search/jql?jql=key%3DENG-1&fields=summary,description");
    expect(found.body.issues.map((i: { key: string }) => i.key)).toEqual(["ENG-1"]);
    expect(typeof found.body.issues[0].fields.description).toBe("string");
    const { transitions } = (await call("GET", "/rest/api/2/issue/ENG-1/transitions")).body;
    const target = transitions.find((t: { to: { name: string } }) => t.to.name === "Done");
    const done = await call("POST", "/rest/api/2/issue/ENG-1/transitions", {
      transition: { id: target.id },
      fields: { resolution: { name: "Done" } },
      update: { comment: [{ add: { body: "moving *now*" } }] },
    });
    expect(done.status).toBe(204);
    const status = await call("GET", "/rest/api/3/issue/ENG-1?fields=status");
    expect(status.body.fields.status.name).toBe("Done");
    const comment = (await call("GET", "/rest/api/3/issue/ENG-1/comment")).body.comments.at(-1);
    expect(comment.body.content[0].content[1]).toEqual({
      type: "text",
      text: "now",
      marks: [{ type: "strong" }],
    });
  });
});

describe("endpoints clients call first (v2 and v3)", () => {
  it.each(["2", "3"])("serverInfo, field, user and permission search on v%s", async (v) => {
    const info = await call("GET", `/rest/api/${v}/serverInfo`);
    expect(info.body).toMatchObject({
      deploymentType: "Cloud",
      baseUrl: "http://sim.test/s/t",
      versionNumbers: [1001, 0, 0],
    });
    const fields = (await call("GET", `/rest/api/${v}/field`)).body as {
      id: string;
      clauseNames: string[];
    }[];
    expect(fields.find((f) => f.id === "duedate")?.clauseNames).toEqual(["due", "duedate"]);
    const users = await call(
      "GET",
      `/rest/api/${v}/user/permission/search?permissions=BROWSE_PROJECTS,ASSIGN_ISSUES&projectKey=ENG&query=priya`,
    );
    expect(users.body.length).toBeGreaterThan(0);
    const user = await call("GET", `/rest/api/${v}/user?accountId=${users.body[0].accountId}`);
    expect(user.body.displayName).toBe(users.body[0].displayName);
    expect((await call("GET", `/rest/api/${v}/user?accountId=nobody`)).status).toBe(404);
    expect((await call("GET", `/rest/api/${v}/user/permission/search?permissions=FLY`)).status).toBe(400);
    expect(
      (
        await call(
          "GET",
          `/rest/api/${v}/user/permission/search?permissions=BROWSE_PROJECTS&issueKey=ENG-999`,
        )
      ).status,
    ).toBe(404);
  });
});

describe("Confluence v1 content and spaces", () => {
  it("lists pages by space key and title with start/limit and _links.next", async () => {
    const first = await call(
      "GET",
      "/wiki/rest/api/content?spaceKey=ENG&type=page&limit=2&expand=version,space",
    );
    expect(first.body.size).toBe(2);
    expect(first.body.results[0].space.key).toBe("ENG");
    expect(first.body._links.next).toBe(
      "/rest/api/content?spaceKey=ENG&type=page&expand=version%2Cspace&limit=2&start=2",
    );
    const second = await call("GET", `/wiki${first.body._links.next}`);
    expect(second.body.start).toBe(2);
    expect(second.body.results[0].id).not.toBe(first.body.results[0].id);
    const title = first.body.results[1].title;
    const byTitle = await call(
      "GET",
      `/wiki/rest/api/content?spaceKey=ENG&title=${encodeURIComponent(title)}`,
    );
    expect(byTitle.body.results.map((p: { title: string }) => p.title)).toEqual([title]);
    const unknown = await call("GET", "/wiki/rest/api/content?spaceKey=NOPE");
    expect(unknown.body.results).toEqual([]);
  });

  it("creates under an ancestor (storage or ADF), reads with expand, updates with version + 1", async () => {
    const parent = (await call("GET", "/wiki/rest/api/content?spaceKey=ENG&limit=2")).body.results[1];
    const adf = {
      type: "doc",
      version: 1,
      content: [{ type: "paragraph", content: [{ type: "text", text: "Hi" }] }],
    };
    const created = await call("POST", "/wiki/rest/api/content", {
      type: "page",
      title: "From v1",
      space: { key: "ENG" },
      ancestors: [{ id: parent.id }],
      body: { atlas_doc_format: { value: JSON.stringify(adf), representation: "atlas_doc_format" } },
    });
    expect(created.status).toBe(200);
    expect(created.body.ancestors.at(-1).id).toBe(parent.id);
    expect(created.body.version.number).toBe(1);
    const v2 = await call("GET", `/wiki/api/v2/pages/${created.body.id}?body-format=atlas_doc_format`);
    expect(v2.body.parentId).toBe(parent.id);
    expect(JSON.parse(v2.body.body.atlas_doc_format.value)).toEqual(adf);
    const read = await call(
      "GET",
      `/wiki/rest/api/content/${created.body.id}?expand=body.storage,version,ancestors,space`,
    );
    expect(read.body.body.storage.value).toBe("<p>Hi</p>");
    const children = await call("GET", `/wiki/rest/api/content/${parent.id}/child/page`);
    expect(children.body.results.map((c: { id: string }) => c.id)).toContain(created.body.id);
    const put = (number: number) =>
      call("PUT", `/wiki/rest/api/content/${created.body.id}`, {
        type: "page",
        title: "From v1",
        version: { number },
        body: { storage: { value: "<p>Two</p>", representation: "storage" } },
      });
    const stale = await put(1);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      statusCode: 409,
      message: expect.stringMatching(/Version must be incremented/),
    });
    const updated = await put(2);
    expect(updated.body.version.number).toBe(2);
    const history = await call("GET", `/wiki/rest/api/content/${created.body.id}/history`);
    expect(history.body.lastUpdated.number).toBe(2);
  });

  it("reads spaces by key and finds users", async () => {
    const spaces = await call("GET", "/wiki/rest/api/space?limit=2");
    expect(spaces.body.results).toHaveLength(2);
    expect(spaces.body._links.next).toBe("/rest/api/space?limit=2&start=2");
    // A limit above the fixed system limit is answered with that limit, as Cloud's v1 does, not refused.
    const capped = await call("GET", "/wiki/rest/api/space?limit=1000");
    expect(capped.status).toBe(200);
    expect(capped.body.limit).toBe(250);
    const content = await call("GET", "/wiki/rest/api/content?spaceKey=ENG&limit=5000");
    expect(content.status).toBe(200);
    expect(content.body.limit).toBe(250);
    expect(content.body.results.length).toBeGreaterThan(2);
    const eng = await call("GET", "/wiki/rest/api/space/ENG");
    expect(eng.body).toMatchObject({ key: "ENG", type: "global" });
    // The v1 document requires SpaceDescription.embeddedContent, and real Confluence sends it (empty).
    const described = await call("GET", "/wiki/rest/api/space/ENG?expand=description.plain");
    expect(described.body.description.plain).toEqual({
      value: expect.any(String),
      representation: "plain",
      embeddedContent: [],
    });
    const users = await call("GET", '/wiki/rest/api/search/user?cql=user.fullname~"priya"');
    expect(users.body.results[0].user.displayName).toMatch(/Priya/);
    const byId = await call(
      "GET",
      `/wiki/rest/api/search/user?cql=user.accountid="${users.body.results[0].user.accountId}"`,
    );
    expect(byId.body.totalSize).toBe(1);
  });
});

describe("contracts", () => {
  it("every answer above conforms to its surface's document, and each presentation ran its operation", () => {
    expect(violations).toEqual([]);
    expect(seen).toContain("POST /rest/api/2/issue -> createIssue");
    expect(seen).toContain("POST /wiki/rest/api/content -> createPage");
    expect(seen).toContain("PUT /wiki/rest/api/content/{id} -> updatePage");
    expect(seen).toContain("GET /wiki/rest/api/space/{spaceKey} -> getSpaces");
  });
});
