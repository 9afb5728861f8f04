import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { engAndOps, type PageBean } from "../../../../test/support/confluence-requests.ts";
import { AGENT_ACCOUNT_ID, createSite } from "../../fixtures/default-site.ts";
import type { Site } from "../../site.ts";

function fixture() {
  const site = createSite({ seed: 1 });
  const { eng, ops } = engAndOps(site);
  const pageId = (title: string) =>
    (call(site, "getPages", { title }).body as { results: { id: string }[] }).results[0]!.id;
  return { site, eng, ops, pageId };
}

function expectError(
  site: Site,
  run: () => { status: number; body: unknown },
  status: number,
  title: string | RegExp,
) {
  const before = site.hash();
  const res = run();
  expect(res.status).toBe(status);
  const error = (res.body as { errors: { status: number; code: string; title: string; detail: null }[] })
    .errors[0]!;
  expect(error.status).toBe(status);
  if (typeof title === "string") expect(error.title).toBe(title);
  else expect(error.title).toMatch(title);
  expect(error.detail).toBeNull();
  expect(site.hash()).toBe(before);
  return error;
}

const storage = (value: string) => ({ representation: "storage", value });

describe("createPage", () => {
  it("creates a page under the space homepage by default, as version 1, answering 200", () => {
    const { site, eng } = fixture();
    const res = call(
      site,
      "createPage",
      {},
      { spaceId: eng.id, title: "Q3 Plan", body: storage("<p>Plan</p>") },
    );
    expect(res.status).toBe(200);
    const page = res.body as PageBean;
    expect(page).toMatchObject({
      title: "Q3 Plan",
      status: "current",
      spaceId: eng.id,
      parentId: eng.homepageId,
    });
    expect(page.version).toMatchObject({ number: 1, authorId: AGENT_ACCOUNT_ID });
    expect(page.authorId).toBe(AGENT_ACCOUNT_ID);
    expect(page.body?.storage?.value).toBe("<p>Plan</p>");
    expect(page._links.webui).toBe(`/spaces/ENG/pages/${page.id}/Q3-Plan`);
    expect(page._links.base).toBe("http://sim.test/wiki");
    const read = call(site, "getPageById", { id: page.id, "body-format": "storage" }).body as PageBean;
    expect(read.body?.storage?.value).toBe("<p>Plan</p>");
  });

  it("creates under a given parent, appended after its existing children", () => {
    const { site, eng, pageId } = fixture();
    const runbooks = pageId("Runbooks");
    const before = (call(site, "getChildPages", { id: runbooks }).body as { results: unknown[] }).results
      .length;
    const page = call(site, "createPage", {}, { spaceId: eng.id, title: "Cache Flush", parentId: runbooks })
      .body as PageBean;
    expect(page.parentId).toBe(runbooks);
    expect(page.position).toBe(before);
    const children = (call(site, "getChildPages", { id: runbooks }).body as { results: { id: string }[] })
      .results;
    expect(children.at(-1)?.id).toBe(page.id);
  });

  it("creates at the root with root-level=true, and accepts a nested ADF body", () => {
    const { site, eng } = fixture();
    const doc = {
      type: "doc",
      version: 1,
      content: [{ type: "paragraph", content: [{ type: "text", text: "Hi" }] }],
    };
    const page = call(
      site,
      "createPage",
      { "root-level": "true" },
      {
        spaceId: eng.id,
        title: "Top",
        body: { atlas_doc_format: { value: JSON.stringify(doc), representation: "atlas_doc_format" } },
      },
    ).body as PageBean;
    expect(page.parentId).toBeUndefined();
    expect(JSON.parse(page.body!.atlas_doc_format!.value)).toEqual(doc);
    const asStorage = call(site, "getPageById", { id: page.id, "body-format": "storage" }).body as PageBean;
    expect(asStorage.body?.storage?.value).toBe("<p>Hi</p>");
  });

  it("creates a draft without a title, and does not reserve titles with drafts", () => {
    const { site, eng } = fixture();
    const draft = call(site, "createPage", {}, { spaceId: eng.id, status: "draft" }).body as PageBean;
    expect(draft).toMatchObject({ status: "draft", title: "" });
    call(site, "createPage", {}, { spaceId: eng.id, status: "draft", title: "Later" });
    expect(call(site, "createPage", {}, { spaceId: eng.id, title: "Later" }).status).toBe(200);
  });

  it("rejects a duplicate title in the same space (ignoring case) with the real 400", () => {
    const { site, eng, ops } = fixture();
    expectError(
      site,
      () => call(site, "createPage", {}, { spaceId: eng.id, title: "deploy runbook" }),
      400,
      "A page with this title already exists: A page already exists with the same TITLE in this space",
    );
    expect(call(site, "createPage", {}, { spaceId: ops.id, title: "Deploy Runbook" }).status).toBe(200);
  });

  it("rejects bad input with Confluence errors and no change", () => {
    const { site, eng, ops, pageId } = fixture();
    expectError(site, () => call(site, "createPage", {}, { title: "x" }), 400, /spaceId/);
    expectError(site, () => call(site, "createPage", {}, { spaceId: "ENG", title: "x" }), 400, /spaceId/);
    expectError(
      site,
      () => call(site, "createPage", {}, { spaceId: "77", title: "x" }),
      404,
      /no space with id 77/,
    );
    expectError(site, () => call(site, "createPage", {}, { spaceId: eng.id }), 400, /Title is required/);
    expectError(
      site,
      () => call(site, "createPage", {}, { spaceId: eng.id, title: "  " }),
      400,
      /Title is required/,
    );
    expectError(
      site,
      () => call(site, "createPage", {}, { spaceId: eng.id, title: "x".repeat(256) }),
      400,
      /255/,
    );
    expectError(
      site,
      () => call(site, "createPage", {}, { spaceId: eng.id, title: "x", parentId: "5" }),
      404,
      /no page with id 5/,
    );
    expectError(
      site,
      () => call(site, "createPage", {}, { spaceId: eng.id, title: "x", parentId: ops.homepageId }),
      404,
      /must be in the same space/,
    );
    expectError(
      site,
      () =>
        call(
          site,
          "createPage",
          { "root-level": true },
          { spaceId: eng.id, title: "x", parentId: pageId("Runbooks") },
        ),
      400,
      /root-level/,
    );
    expectError(
      site,
      () =>
        call(site, "createPage", {}, { spaceId: eng.id, title: "x", body: storage("<p><b>unclosed</p>") }),
      400,
      /^Error parsing xhtml: Unexpected close tag <\/p>; expected <\/b>/,
    );
    expectError(
      site,
      () =>
        call(
          site,
          "createPage",
          {},
          { spaceId: eng.id, title: "x", body: { representation: "atlas_doc_format", value: "{not json" } },
        ),
      400,
      /ADF document encoded as a JSON string/,
    );
    expectError(
      site,
      () =>
        call(
          site,
          "createPage",
          {},
          {
            spaceId: eng.id,
            title: "x",
            body: {
              representation: "atlas_doc_format",
              value: JSON.stringify({ type: "doc", version: 1, content: [{ type: "bogus" }] }),
            },
          },
        ),
      400,
      /unknown node type 'bogus'/,
    );
    expectError(
      site,
      () => call(site, "createPage", {}, { spaceId: eng.id, title: "x", body: {} }),
      400,
      /representation/,
    );
    expectError(
      site,
      () =>
        call(
          site,
          "createPage",
          {},
          { spaceId: eng.id, title: "x", body: { representation: "wiki", value: "h1. x" } },
        ),
      400,
      /wiki/,
    );
  });
});

describe("updatePage", () => {
  function update(site: Site, id: string, body: Record<string, unknown>) {
    return call(site, "updatePage", { id }, { id, status: "current", body: storage("<p>New</p>"), ...body });
  }

  it("updates title and body with version current+1 and records the version", () => {
    const { site, pageId } = fixture();
    const id = pageId("Deploy Runbook");
    const res = update(site, id, { title: "Deploy Runbook v2", version: { number: 2, message: "Rewrite" } });
    expect(res.status).toBe(200);
    const page = res.body as PageBean;
    expect(page).toMatchObject({ id, title: "Deploy Runbook v2" });
    expect(page.version).toMatchObject({ number: 2, message: "Rewrite", authorId: AGENT_ACCOUNT_ID });
    expect(page.body?.storage?.value).toBe("<p>New</p>");
    const again = update(site, id, { title: "Deploy Runbook v2", version: { number: 3 } }).body as PageBean;
    expect(again.version.number).toBe(3);
  });

  it("answers a stale or skipped version with the real 409 and changes nothing", () => {
    const { site, pageId } = fixture();
    const id = pageId("Deploy Runbook");
    for (const number of [1, 3]) {
      const error = expectError(
        site,
        () => update(site, id, { title: "Deploy Runbook", version: { number } }),
        409,
        `Version must be incremented when updating a page. Current Version: [1]. Provided version: [${number}]`,
      );
      expect(error.code).toBe("CONFLICT");
    }
  });

  it("moves a page under another parent in the same space", () => {
    const { site, pageId } = fixture();
    const id = pageId("Deploy Runbook");
    const onboarding = pageId("Onboarding");
    const page = update(site, id, { title: "Deploy Runbook", parentId: onboarding, version: { number: 2 } })
      .body as PageBean;
    expect(page.parentId).toBe(onboarding);
    const children = (call(site, "getChildPages", { id: onboarding }).body as { results: { id: string }[] })
      .results;
    expect(children.at(-1)?.id).toBe(id);
  });

  it("publishes a draft", () => {
    const { site, eng } = fixture();
    const draft = call(site, "createPage", {}, { spaceId: eng.id, status: "draft", title: "WIP" })
      .body as PageBean;
    const page = update(site, draft.id, { title: "WIP", version: { number: 1 } }).body as PageBean;
    expect(page).toMatchObject({ status: "current", title: "WIP" });
  });

  it("rejects bad updates with Confluence errors and no change", () => {
    const { site, eng, ops, pageId } = fixture();
    const id = pageId("Deploy Runbook");
    const runbooks = pageId("Runbooks");
    const v2 = { number: 2 };
    expectError(site, () => update(site, "123", { title: "x", version: v2 }), 404, "Not Found");
    expectError(
      site,
      () => call(site, "updatePage", { id }, { id, status: "current", title: "x", version: v2 }),
      400,
      /body/,
    );
    expectError(
      site,
      () => call(site, "updatePage", { id }, { id, status: "current", title: "x", body: storage("") }),
      400,
      /version/,
    );
    expectError(
      site,
      () =>
        call(
          site,
          "updatePage",
          { id },
          { ...{ id: runbooks }, status: "current", title: "x", body: storage(""), version: v2 },
        ),
      400,
      /does not match/,
    );
    expectError(
      site,
      () => update(site, id, { title: "Rollback Runbook", version: v2 }),
      400,
      /A page with this title already exists/,
    );
    expectError(site, () => update(site, id, { title: "", version: v2 }), 400, /Title is required/);
    expectError(
      site,
      () => update(site, id, { title: "x", parentId: "42", version: v2 }),
      404,
      /no page with id 42/,
    );
    expectError(
      site,
      () => update(site, id, { title: "x", parentId: ops.homepageId, version: v2 }),
      404,
      /same space/,
    );
    expectError(
      site,
      () => update(site, runbooks, { title: "Runbooks", parentId: id, version: v2 }),
      400,
      /under itself or one of its descendants/,
    );
    expectError(
      site,
      () => update(site, id, { title: "x", spaceId: ops.id, version: v2 }),
      400,
      /different space/,
    );
    expectError(site, () => update(site, id, { title: "x", spaceId: "5", version: v2 }), 404, "Not Found");
    expectError(site, () => update(site, id, { title: "x", ownerId: "nobody", version: v2 }), 400, /nobody/);
    expectError(
      site,
      () => update(site, id, { title: "x", body: storage("<p>a</div>"), version: v2 }),
      400,
      /Error parsing xhtml/,
    );
    expectError(
      site,
      () => update(site, id, { title: "x", status: "draft", version: { number: 1 } }),
      400,
      /draft/,
    );
    expect(update(site, id, { title: "Deploy Runbook", spaceId: eng.id, version: v2 }).status).toBe(200);
  });
});
