import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { createSite } from "../../fixtures/default-site.ts";
import { findSpaceByKey } from "../store.ts";

interface Result {
  entityType: string;
  title: string;
  url: string;
  excerpt: string;
  content?: { id: string; type: string; status: string; _links: { webui: string } };
  space?: { id: number; key: string; name: string };
  resultGlobalContainer: { title: string; displayUrl: string };
}
interface SearchPage {
  results: Result[];
  start: number;
  limit: number;
  size: number;
  totalSize: number;
  cqlQuery: string;
  _links: { base: string; next?: string };
}

const search = (site: ReturnType<typeof createSite>, params: Record<string, unknown>) =>
  call(site, "searchByCQL", params).body as SearchPage;
const titles = (page: SearchPage) => page.results.map((r) => r.title);

describe("searchByCQL", () => {
  const site = createSite({ seed: 1 });

  it("finds a space by its name", () => {
    const page = search(site, { cql: 'type = space AND space.title = "operations handbook"' });
    expect(page.totalSize).toBe(1);
    const [result] = page.results;
    expect(result).toMatchObject({
      entityType: "space",
      title: "Operations Handbook",
      url: "/spaces/OPS",
      space: { key: "OPS", name: "Operations Handbook", id: Number(findSpaceByKey(site, "OPS")!.id) },
      resultGlobalContainer: { title: "Operations Handbook", displayUrl: "/spaces/OPS" },
    });
    expect(page.cqlQuery).toBe('type = space AND space.title = "operations handbook"');
    expect(page._links.base).toBe("http://sim.test/wiki");
  });

  it("finds pages of a space by title words, sorted by ORDER BY", () => {
    const page = search(site, {
      cql: 'type = page AND space = ENG AND title ~ "runbook" ORDER BY title DESC',
    });
    // Words match whole (no stemming): "Runbooks" is not a match for "runbook".
    expect(titles(page)).toEqual(["Rollback Runbook", "Deploy Runbook"]);
    expect(page.results[0]).toMatchObject({
      entityType: "content",
      content: { type: "page", status: "current", title: "Rollback Runbook" },
      resultGlobalContainer: { title: "Engineering", displayUrl: "/spaces/ENG" },
    });
    expect(page.results[0]!.url).toBe(page.results[0]!.content!._links.webui);
    expect(page.results[0]!.url).toMatch(/^\/spaces\/ENG\/pages\/\d+\/Rollback-Runbook$/);
  });

  it("matches prefixes, ancestors, parents, ids and labels, with NOT and IN", () => {
    const inc = search(site, { cql: 'type = page AND title = "Incident Response"' }).results[0]!;
    const incId = inc.content!.id;
    expect(titles(search(site, { cql: `ancestor = ${incId} ORDER BY title` }))).toEqual([
      "Incident Postmortems",
      "Postmortem Template",
      "Severity Levels",
    ]);
    expect(titles(search(site, { cql: `parent = ${incId} AND NOT title ~ "postmortem*"` }))).toEqual([
      "Severity Levels",
    ]);
    expect(titles(search(site, { cql: `id IN (${incId}, 1)` }))).toEqual(["Incident Response"]);
    expect(
      search(site, { cql: "type = space AND space NOT IN (ENG, OPS)" }).results.map((r) => r.space?.key),
    ).toEqual(["PROD", "HR"]);
    const labelled = [...site.values("pageLabels")].filter((l) => l.prefix === "global");
    const name = labelled[0]!.name;
    const expected = new Set(labelled.filter((l) => l.name === name).map((l) => l.pageId));
    const found = search(site, { cql: `label = "${name}"`, limit: 100 }).results.map((r) => r.content!.id);
    expect(new Set(found)).toEqual(expected);
  });

  it("searches text in page bodies and space descriptions; excerpt=none empties excerpts", () => {
    const page = search(site, { cql: 'text ~ "on-call"', limit: 100 });
    expect(page.results[0]).toMatchObject({ entityType: "space", title: "Operations Handbook" });
    expect(titles(page)).toContain("On-call Guide");
    expect(page.results.every((r) => r.excerpt.length > 0)).toBe(true);
    expect(
      search(site, { cql: 'text ~ "on-call"', excerpt: "none" }).results.every((r) => r.excerpt === ""),
    ).toBe(true);
  });

  it("pages with limit, start and the cursor of _links.next", () => {
    const first = search(site, { cql: "type = page", limit: 5 });
    expect(first).toMatchObject({ start: 0, limit: 5, size: 5 });
    expect(first.totalSize).toBeGreaterThan(10);
    const next = Object.fromEntries(new URL(first._links.next!, "http://x").searchParams);
    const second = search(site, next);
    expect(second.start).toBe(5);
    expect(second.results.map((r) => r.content!.id)).toEqual(
      search(site, { cql: "type = page", start: 5, limit: 5 }).results.map((r) => r.content!.id),
    );
    expect(titles(second)).not.toContain(first.results[0]!.title);
    expect(search(site, { cql: "type = page", limit: 1000 }).limit).toBe(100);
  });

  it("answers bad CQL and bad cursors with a v1 400 and changes nothing", () => {
    const before = site.hash();
    for (const [params, message] of [
      [{ cql: 'title = "open' }, 'Could not parse cql : title = "open'],
      [{ cql: "creator = currentUser()" }, "Could not parse cql : creator = currentUser()"],
      [{ cql: "type = page", cursor: "nope" }, "Invalid cursor: nope"],
    ] as const) {
      const res = call(site, "searchByCQL", params);
      expect(res.status).toBe(400);
      const body = res.body as { statusCode: number; message: string; data: { valid: boolean } };
      expect(body.statusCode).toBe(400);
      expect(body.data.valid).toBe(false);
      expect(body.message).toContain(message);
    }
    expect(call(site, "searchByCQL", {}).status).toBe(400);
    expect(site.hash()).toBe(before);
  });
});
