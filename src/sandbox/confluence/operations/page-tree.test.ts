import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { createSite } from "../../fixtures/default-site.ts";

interface Child {
  id: string;
  title: string;
  status: string;
  spaceId: string;
  type?: string;
  childPosition: number;
}
interface ChildList {
  results: Child[];
  _links: { next?: string; base: string };
}

const site = createSite({ seed: 1 });
const pageId = (title: string) =>
  (call(site, "getPages", { title }).body as { results: { id: string }[] }).results[0]!.id;

describe.each([
  ["getChildPages", "children"],
  ["getPageDirectChildren", "direct-children"],
])("%s", (operationId, segment) => {
  it("lists children in tree order with their positions", () => {
    const body = call(site, operationId, { id: pageId("Runbooks") }).body as ChildList;
    expect(body.results.map((c) => c.title)).toEqual([
      "Deploy Runbook",
      "Rollback Runbook",
      "Database Failover",
    ]);
    expect(body.results.map((c) => c.childPosition)).toEqual([0, 1, 2]);
    if (operationId === "getPageDirectChildren")
      expect(body.results.every((c) => c.type === "page")).toBe(true);
    expect(body._links.next).toBeUndefined();
  });

  it("pages through children with a cursor and supports reverse order", () => {
    const id = pageId("Engineering Home");
    const all = (call(site, operationId, { id }).body as ChildList).results.map((c) => c.id);
    expect(all).toHaveLength(4);
    const first = call(site, operationId, { id, limit: 3 }).body as ChildList;
    expect(first._links.next).toMatch(
      new RegExp(`^/wiki/api/v2/pages/${id}/${segment}\\?cursor=[\\w-]+&limit=3$`),
    );
    const cursor = new URL(first._links.next!, "http://x").searchParams.get("cursor");
    const second = call(site, operationId, { id, limit: 3, cursor }).body as ChildList;
    expect([...first.results, ...second.results].map((c) => c.id)).toEqual(all);
    expect(second._links.next).toBeUndefined();
    const reversed = (call(site, operationId, { id, sort: "-child-position" }).body as ChildList).results;
    expect(reversed.map((c) => c.id)).toEqual([...all].reverse());
  });

  it("answers a leaf page with an empty list", () => {
    expect((call(site, operationId, { id: pageId("Deploy Runbook") }).body as ChildList).results).toEqual([]);
  });

  it("answers an unknown page with 404 and a non-numeric id with 400, changing nothing", () => {
    const before = site.hash();
    expect(call(site, operationId, { id: "12" })).toMatchObject({
      status: 404,
      body: { errors: [{ status: 404, code: "NOT_FOUND", title: "Not Found", detail: null }] },
    });
    expect(call(site, operationId, { id: "Runbooks" }).status).toBe(400);
    expect(call(site, operationId, { id: pageId("Runbooks"), limit: 0 }).status).toBe(400);
    expect(site.hash()).toBe(before);
  });
});

describe("getPageAncestors", () => {
  /** The chain of parent ids from getPageById, nearest first. */
  function parentsOf(id: string): string[] {
    const chain: string[] = [];
    for (let up = (call(site, "getPageById", { id }).body as { parentId: string | null }).parentId; up; ) {
      chain.push(up);
      up = (call(site, "getPageById", { id: up }).body as { parentId: string | null }).parentId;
    }
    return chain;
  }

  it("lists the ancestors highest first, the nearest `limit` of them, and the rest from the first one's", () => {
    const id = pageId("Deploy Runbook");
    const chain = parentsOf(id);
    expect(chain.length).toBeGreaterThanOrEqual(2);
    const all = call(site, "getPageAncestors", { id }).body as { results: { id: string; type: string }[] };
    expect(all.results).toEqual([...chain].reverse().map((a) => ({ id: a, type: "page" })));
    const nearest = call(site, "getPageAncestors", { id, limit: 1 }).body as { results: { id: string }[] };
    expect(nearest.results.map((a) => a.id)).toEqual([chain[0]]);
    const rest = call(site, "getPageAncestors", { id: chain[0]!, limit: 250 }).body as {
      results: { id: string }[];
    };
    expect(rest.results.map((a) => a.id)).toEqual(chain.slice(1).reverse());
    const top = chain[chain.length - 1]!;
    expect((call(site, "getPageAncestors", { id: top }).body as { results: unknown[] }).results).toEqual([]);
  });

  it("answers an unknown page 404 and a limit out of range 400, as the other page reads do", () => {
    expect(call(site, "getPageAncestors", { id: "999999" }).status).toBe(404);
    expect(call(site, "getPageAncestors", { id: pageId("Runbooks"), limit: 0 }).status).toBe(400);
    expect(call(site, "getPageAncestors", { id: pageId("Runbooks"), limit: 251 }).status).toBe(400);
  });
});
