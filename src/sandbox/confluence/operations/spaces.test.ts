import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { createSite } from "../../fixtures/default-site.ts";

interface Space {
  id: string;
  key: string;
  name: string;
  homepageId: string;
  description?: { plain?: { value: string } };
  _links: { webui: string; base?: string };
}
interface SpaceList {
  results: Space[];
  _links: { next?: string; base: string };
}

/** The query of a `_links.next` URL as operation params. */
function nextParams(next: string): Record<string, string> {
  return Object.fromEntries(new URL(next, "http://x").searchParams);
}

describe("getSpaces", () => {
  const site = createSite({ seed: 1 });

  it("lists every space sorted by id, with webui links and the site base", () => {
    const body = call(site, "getSpaces").body as SpaceList;
    expect(body.results.map((s) => s.key)).toEqual(["ENG", "OPS", "PROD", "HR"]);
    expect(body.results[0]?._links.webui).toBe("/spaces/ENG");
    expect(body._links).toEqual({ base: "http://sim.test/wiki" });
  });

  it("finds a space by key and includes the plain description when asked", () => {
    const body = call(site, "getSpaces", { keys: ["OPS"], "description-format": "plain" }).body as SpaceList;
    expect(body.results).toHaveLength(1);
    expect(body.results[0]?.name).toBe("Operations Handbook");
    expect(body.results[0]?.description?.plain?.value).toBe("Incident response and on-call.");
  });

  it("filters by ids (comma-separated), type and status, and sorts by name descending", () => {
    const all = (call(site, "getSpaces").body as SpaceList).results;
    const ids = `${all[0]!.id},${all[2]!.id}`;
    expect((call(site, "getSpaces", { ids }).body as SpaceList).results.map((s) => s.key)).toEqual([
      "ENG",
      "PROD",
    ]);
    expect((call(site, "getSpaces", { type: "personal" }).body as SpaceList).results).toEqual([]);
    expect((call(site, "getSpaces", { status: "archived" }).body as SpaceList).results).toEqual([]);
    expect((call(site, "getSpaces", { sort: "-name" }).body as SpaceList).results.map((s) => s.key)).toEqual([
      "PROD",
      "HR",
      "OPS",
      "ENG",
    ]);
  });

  it("pages through the spaces with a cursor, keeping the filters, without gaps", () => {
    const seen: string[] = [];
    let params: Record<string, unknown> = { limit: 1, sort: "key" };
    for (let i = 0; i < 10; i++) {
      const body = call(site, "getSpaces", params).body as SpaceList;
      seen.push(...body.results.map((s) => s.key));
      if (!body._links.next) break;
      expect(body._links.next).toMatch(/^\/wiki\/api\/v2\/spaces\?sort=key&cursor=[\w-]+&limit=1$/);
      params = nextParams(body._links.next);
    }
    expect(seen).toEqual(["ENG", "HR", "OPS", "PROD"]);
  });

  it("answers a limit outside 1..250 and a foreign cursor with 400, changing nothing", () => {
    const before = site.hash();
    for (const params of [{ limit: 0 }, { limit: 251 }, { cursor: "not-a-cursor" }]) {
      const res = call(site, "getSpaces", params);
      expect(res.status).toBe(400);
      expect((res.body as { errors: { status: number; code: string }[] }).errors[0]?.status).toBe(400);
    }
    expect(call(site, "getSpaces", { limit: 500 }).body).toEqual({
      errors: [
        {
          status: 400,
          code: "BAD_REQUEST",
          title: "Invalid parameter: 'limit' limit must be between 1 and 250",
          detail: null,
        },
      ],
    });
    expect(site.hash()).toBe(before);
  });
});

describe("getSpaceById", () => {
  const site = createSite({ seed: 1 });
  const eng = (call(site, "getSpaces", { keys: "ENG" }).body as SpaceList).results[0]!;

  it("returns the space with _links.base and optional sub-collections", () => {
    const body = call(site, "getSpaceById", { id: eng.id, "include-labels": "true" }).body as Space & {
      labels: { results: unknown[] };
    };
    expect(body.key).toBe("ENG");
    expect(body.homepageId).toBe(eng.homepageId);
    expect(body._links).toEqual({ webui: "/spaces/ENG", base: "http://sim.test/wiki" });
    expect(body.labels.results).toEqual([]);
  });

  it("answers an unknown space with 404 and a non-numeric id with 400", () => {
    const before = site.hash();
    expect(call(site, "getSpaceById", { id: "1" })).toMatchObject({
      status: 404,
      body: { errors: [{ status: 404, code: "NOT_FOUND", title: "Not Found", detail: null }] },
    });
    expect(call(site, "getSpaceById", { id: "ENG" })).toMatchObject({
      status: 400,
      body: {
        errors: [{ status: 400, code: "BAD_REQUEST", title: "Invalid parameter: 'id' must be a numeric id" }],
      },
    });
    expect(site.hash()).toBe(before);
  });
});
