import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { engAndOps, type PageBean, type PageList } from "../../../../test/support/confluence-requests.ts";
import { createSite } from "../../fixtures/default-site.ts";

const site = createSite({ seed: 1 });
const { eng, ops } = engAndOps(site);

function nextParams(next: string): Record<string, string> {
  return Object.fromEntries(new URL(next, "http://x").searchParams);
}

function collect(operationId: string, first: Record<string, unknown>): { ids: string[]; calls: number } {
  const ids: string[] = [];
  let params = first;
  let calls = 0;
  for (;;) {
    const res = call(site, operationId, params);
    expect(res.status).toBe(200);
    const body = res.body as PageList;
    calls++;
    ids.push(...body.results.map((p) => p.id));
    if (!body._links.next) return { ids, calls };
    expect(body._links.next.startsWith("/wiki/api/v2/")).toBe(true);
    params = { ...(first.id ? { id: first.id } : {}), ...nextParams(body._links.next) };
  }
}

describe("getPages", () => {
  it("lists current pages sorted by id, without bodies by default", () => {
    const body = call(site, "getPages", { limit: 250 }).body as PageList;
    expect(body.results.length).toBe(site.size("pages"));
    const ids = body.results.map((p) => Number(p.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(body.results[0]?.body).toBeUndefined();
    expect(body._links.next).toBeUndefined();
  });

  it("pages through all pages in several requests without gaps or repeats", () => {
    const all = (call(site, "getPages", { limit: 250 }).body as PageList).results.map((p) => p.id);
    const { ids, calls } = collect("getPages", { limit: 7 });
    expect(calls).toBe(Math.ceil(all.length / 7));
    expect(ids).toEqual(all);
  });

  it("keeps filters and sort in the next link", () => {
    const first = call(site, "getPages", { "space-id": [eng.id], sort: "-title", limit: 4 }).body as PageList;
    expect(first._links.next).toMatch(
      /^\/wiki\/api\/v2\/pages\?space-id=\d+&sort=-title&cursor=[\w-]+&limit=4$/,
    );
    const { ids } = collect("getPages", { "space-id": eng.id, sort: "-title", limit: 4 });
    const titles = ids.map((id) => site.get("pages", id)!.title.toLowerCase());
    expect(titles).toEqual([...titles].sort().reverse());
    expect(ids.every((id) => site.get("pages", id)!.spaceId === eng.id)).toBe(true);
  });

  it("filters by exact title and returns the body in the asked format", () => {
    const body = call(site, "getPages", { title: "Deploy Runbook", "body-format": "storage" })
      .body as PageList;
    expect(body.results).toHaveLength(1);
    expect(body.results[0]?.body?.storage?.value).toBe(
      "<p>Deploy Runbook.</p><p>This page is maintained by the team.</p>",
    );
    expect((call(site, "getPages", { title: "deploy runbook" }).body as PageList).results).toEqual([]);
    expect((call(site, "getPages", { title: "Deploy" }).body as PageList).results).toEqual([]);
  });

  it("filters by ids and by status", () => {
    const home = eng.homepageId;
    expect((call(site, "getPages", { id: [home] }).body as PageList).results.map((p) => p.id)).toEqual([
      home,
    ]);
    expect((call(site, "getPages", { status: "trashed" }).body as PageList).results).toEqual([]);
  });

  it("answers a bad limit, cursor or status with 400 and changes nothing", () => {
    const before = site.hash();
    expect(call(site, "getPages", { limit: "abc" }).status).toBe(400);
    expect(call(site, "getPages", { limit: 251 }).status).toBe(400);
    expect(call(site, "getPages", { status: "draft" }).status).toBe(400);
    expect(call(site, "getPages", { cursor: "Zm9vYmFy" })).toMatchObject({
      status: 400,
      body: {
        errors: [{ status: 400, code: "INVALID_REQUEST_PARAMETER", title: "Invalid cursor: Zm9vYmFy" }],
      },
    });
    expect(site.hash()).toBe(before);
  });
});

describe("getPagesInSpace", () => {
  it("lists the pages of one space and only root pages with depth=root", () => {
    const all = (call(site, "getPagesInSpace", { id: ops.id, limit: 250 }).body as PageList).results;
    expect(all.length).toBeGreaterThan(3);
    expect(all.every((p) => p.spaceId === ops.id)).toBe(true);
    const roots = (call(site, "getPagesInSpace", { id: ops.id, depth: "root" }).body as PageList).results;
    expect(roots.map((p) => p.id)).toEqual([ops.homepageId]);
  });

  it("pages through a space with next links relative to /wiki", () => {
    const all = (call(site, "getPagesInSpace", { id: eng.id, limit: 250 }).body as PageList).results;
    const first = call(site, "getPagesInSpace", { id: eng.id, limit: 5 }).body as PageList;
    expect(first._links.next).toMatch(new RegExp(`^/wiki/api/v2/spaces/${eng.id}/pages\\?cursor=`));
    const { ids } = collect("getPagesInSpace", { id: eng.id, limit: 5 });
    expect(ids).toEqual(all.map((p) => p.id));
  });

  it("finds a page in a space by exact title", () => {
    const body = call(site, "getPagesInSpace", { id: ops.id, title: "On-call Guide" }).body as PageList;
    expect(body.results.map((p) => p.title)).toEqual(["On-call Guide"]);
  });

  it("answers an unknown space with 404", () => {
    const before = site.hash();
    expect(call(site, "getPagesInSpace", { id: "42" })).toMatchObject({
      status: 404,
      body: { errors: [{ status: 404, code: "NOT_FOUND", title: "Not Found", detail: null }] },
    });
    expect(site.hash()).toBe(before);
  });
});

describe("getPageById", () => {
  const runbook = (call(site, "getPages", { title: "Rollback Runbook" }).body as PageList).results[0]!;

  it("returns the page with version, links and base, and no body without body-format", () => {
    const body = call(site, "getPageById", { id: runbook.id }).body as PageBean;
    expect(body).toMatchObject({
      id: runbook.id,
      title: "Rollback Runbook",
      status: "current",
      spaceId: eng.id,
    });
    expect(body.version?.number).toBe(1);
    expect(body.body).toBeUndefined();
    expect(body._links.webui).toBe(`/spaces/ENG/pages/${runbook.id}/Rollback-Runbook`);
    expect(body._links.base).toBe("http://sim.test/wiki");
    expect(body._links.tinyui).toMatch(/^\/x\/[\w-]+$/);
  });

  it("converts a storage body to atlas_doc_format (a JSON string)", () => {
    const body = call(site, "getPageById", { id: runbook.id, "body-format": "atlas_doc_format" })
      .body as PageBean;
    const adf = body.body?.atlas_doc_format;
    expect(adf?.representation).toBe("atlas_doc_format");
    expect(JSON.parse(adf!.value)).toEqual({
      type: "doc",
      version: 1,
      content: [
        { type: "paragraph", content: [{ type: "text", text: "Rollback Runbook." }] },
        { type: "paragraph", content: [{ type: "text", text: "This page is maintained by the team." }] },
      ],
    });
  });

  it("includes labels when asked and omits the version when include-version=false", () => {
    const labelled = [...site.values("pageLabels")][0]!;
    const body = call(site, "getPageById", {
      id: labelled.pageId,
      "include-labels": "true",
      "include-version": "false",
    }).body as PageBean;
    expect(body.labels?.results).toContainEqual({
      id: labelled.labelId,
      name: labelled.name,
      prefix: "global",
    });
    expect(body.version).toBeUndefined();
  });

  it("answers a missing page, another version or a non-numeric id with errors and no change", () => {
    const before = site.hash();
    expect(call(site, "getPageById", { id: "999" })).toMatchObject({
      status: 404,
      body: { errors: [{ status: 404, code: "NOT_FOUND", title: "Not Found", detail: null }] },
    });
    expect(call(site, "getPageById", { id: runbook.id, version: 3 }).status).toBe(404);
    expect(call(site, "getPageById", { id: runbook.id, status: "trashed" }).status).toBe(404);
    expect(call(site, "getPageById", { id: "Rollback Runbook" }).status).toBe(400);
    expect(site.hash()).toBe(before);
  });
});
