import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { createSite } from "../../fixtures/default-site.ts";
import type { Site } from "../../site.ts";

interface Bean {
  id: string;
  status: string;
  parentId: string | null;
  version: { number: number };
}

function fixture() {
  const site = createSite({ seed: 1 });
  const pageId = (title: string) =>
    (call(site, "getPages", { title }).body as { results: { id: string }[] }).results[0]!.id;
  const children = (id: string) =>
    (call(site, "getChildPages", { id }).body as { results: { id: string; title: string }[] }).results;
  return { site, pageId, children };
}

/** A call that must be refused: the status and Confluence's error shape, and nothing changed. */
function refused(site: Site, params: Record<string, unknown>, status: number, title: string | RegExp) {
  const before = site.hash();
  const res = call(site, "deletePage", params);
  expect(res.status).toBe(status);
  const error = (res.body as { errors: { status: number; title: string }[] }).errors[0]!;
  expect(error.status).toBe(status);
  expect(error.title).toMatch(title);
  expect(site.hash()).toBe(before);
}

describe("deletePage (DELETE /wiki/api/v2/pages/{id})", () => {
  it("moves a page to the trash, its children up to its parent after that parent's own, answering 204", () => {
    const { site, pageId, children } = fixture();
    const runbooks = pageId("Runbooks");
    const parent = (call(site, "getPageById", { id: runbooks }).body as Bean).parentId!;
    const kids = children(runbooks).map((c) => c.id);
    const before = children(parent).map((c) => c.id);
    expect(kids.length).toBeGreaterThan(0);

    const res = call(site, "deletePage", { id: runbooks });
    expect(res).toMatchObject({ status: 204 });
    expect(res.body ?? null).toBeNull();
    expect(call(site, "getPageById", { id: runbooks }).status).toBe(404);
    expect(children(parent).map((c) => c.id)).toEqual([...before.filter((id) => id !== runbooks), ...kids]);
    for (const kid of kids)
      expect((call(site, "getPageById", { id: kid }).body as Bean).parentId).toBe(parent);
    const trashed = call(site, "getPages", { status: ["trashed"], title: "Runbooks" }).body as {
      results: Bean[];
    };
    expect(trashed.results.map((p) => [p.id, p.status])).toEqual([[runbooks, "trashed"]]);
    // A second delete finds nothing to trash; the trash is left to purge.
    refused(site, { id: runbooks }, 404, "Not Found");
  });

  it("purges only a trashed page, with its labels, and a restored one is back as it was", () => {
    const { site, pageId } = fixture();
    const id = pageId("Deploy Runbook");
    expect(call(site, "addLabelsToContent", { id }, [{ prefix: "global", name: "old" }]).status).toBe(200);
    refused(site, { id, purge: true }, 400, /only from the trash/);
    expect(call(site, "deletePage", { id }).status).toBe(204);
    const restored = call(
      site,
      "updatePage",
      { id },
      {
        id,
        status: "current",
        title: "Deploy Runbook",
        body: { representation: "storage", value: "<p>x</p>" },
        version: { number: 2 },
      },
    );
    expect(restored.status).toBe(200);
    expect((restored.body as Bean).status).toBe("current");
    expect(call(site, "deletePage", { id }).status).toBe(204);
    expect(call(site, "deletePage", { id, purge: true }).status).toBe(204);
    expect(site.get("pages", id)).toBeUndefined();
    expect([...site.values("pageLabels")].some((l) => l.pageId === id)).toBe(false);
    refused(site, { id, purge: true }, 404, "Not Found");
  });

  it("removes a draft for good only with draft=true, and a published page never with it", () => {
    const { site, pageId } = fixture();
    const space = (call(site, "getPageById", { id: pageId("Runbooks") }).body as { spaceId: string }).spaceId;
    const draft = call(site, "createPage", {}, { spaceId: space, status: "draft", title: "WIP" })
      .body as Bean;
    refused(site, { id: draft.id }, 404, "Not Found");
    refused(site, { id: draft.id, purge: true }, 404, "Not Found");
    refused(site, { id: pageId("Runbooks"), draft: true }, 404, "Not Found");
    expect(call(site, "deletePage", { id: draft.id, draft: true }).status).toBe(204);
    expect(site.get("pages", draft.id)).toBeUndefined();
  });

  it("refuses to delete a space's homepage, which new pages go under", () => {
    const { site } = fixture();
    const space = [...site.values("spaces")][0]!;
    refused(site, { id: space.homepageId }, 400, /homepage cannot be deleted/);
  });

  it("keeps a trashed page's title reserved until it is purged, and adds after a purged sibling's gap", () => {
    const { site, pageId, children } = fixture();
    const runbooks = pageId("Runbooks");
    const [first, second] = children(runbooks);
    const spaceId = (call(site, "getPageById", { id: first!.id }).body as { spaceId: string }).spaceId;
    expect(call(site, "deletePage", { id: first!.id }).status).toBe(204);
    const before = site.hash();
    const taken = call(site, "createPage", {}, { spaceId, parentId: runbooks, title: first!.title });
    expect(taken.status).toBe(400);
    expect(JSON.stringify(taken.body)).toContain("A page with this title already exists");
    expect(site.hash()).toBe(before);
    expect(call(site, "deletePage", { id: first!.id, purge: true }).status).toBe(204);
    expect(call(site, "createPage", {}, { spaceId, parentId: runbooks, title: first!.title }).status).toBe(
      200,
    );

    // Purging a middle child leaves a gap in the positions; a new page still goes after every sibling.
    expect(call(site, "deletePage", { id: second!.id }).status).toBe(204);
    expect(call(site, "deletePage", { id: second!.id, purge: true }).status).toBe(204);
    const added = call(site, "createPage", {}, { spaceId, parentId: runbooks, title: "After the gap" });
    expect(added.status).toBe(200);
    const positions = (
      call(site, "getChildPages", { id: runbooks }).body as { results: { childPosition: number }[] }
    ).results.map((c) => c.childPosition);
    expect(new Set(positions).size).toBe(positions.length);
    expect(positions.at(-1)).toBe(Math.max(...positions));
  });

  it("answers an unknown or malformed id as the other page routes do, changing nothing", () => {
    const { site } = fixture();
    refused(site, { id: "999999" }, 404, "Not Found");
    refused(site, { id: "abc" }, 400, /.+/);
  });
});
