import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { createSite } from "../../fixtures/default-site.ts";
import type { Site } from "../../site.ts";

interface V1Label {
  prefix: string;
  name: string;
  id: string;
  label: string;
}
interface LabelArray {
  results: V1Label[];
  start: number;
  limit: number;
  size: number;
  _links: Record<string, string>;
}
interface V2Labels {
  results: { id: string; name: string; prefix: string }[];
  _links: { next?: string; base: string };
}

function fixture() {
  const site = createSite({ seed: 1 });
  const pageId = (call(site, "getPages", { title: "Deploy Runbook" }).body as { results: { id: string }[] })
    .results[0]!.id;
  for (const l of [...site.values("pageLabels")].filter((l) => l.pageId === pageId))
    call(site, "removeLabelFromContent", { id: pageId, label: l.name });
  return { site, pageId };
}

function v1Error(site: Site, run: () => { status: number; body: unknown }, status: number, message: RegExp) {
  const before = site.hash();
  const res = run();
  expect(res.status).toBe(status);
  const body = res.body as {
    statusCode: number;
    message: string;
    data: { errors: { message: { translation: string } }[] };
  };
  expect(body.statusCode).toBe(status);
  expect(body.message).toMatch(message);
  expect(body.data.errors[0]?.message.translation).toBe(body.message);
  expect(site.hash()).toBe(before);
}

describe("v1 label writes, read back through v1 and v2", () => {
  it("adds an array of labels, lower-cased, and answers every label of the page", () => {
    const { site, pageId } = fixture();
    const res = call(site, "addLabelsToContent", { id: pageId }, [
      { prefix: "global", name: "Runbook" },
      { prefix: "team", name: "sre" },
    ]);
    expect(res.status).toBe(200);
    const body = res.body as LabelArray;
    expect(body.results.map(({ prefix, name, label }) => ({ prefix, name, label }))).toEqual([
      { prefix: "global", name: "runbook", label: "runbook" },
      { prefix: "team", name: "sre", label: "team:sre" },
    ]);
    expect(body).toMatchObject({ start: 0, limit: 200, size: 2 });
    expect(body._links.base).toBe("http://sim.test/wiki");

    const v2 = call(site, "getPageLabels", { id: pageId }).body as V2Labels;
    expect(v2.results).toEqual(body.results.map(({ id, name, prefix }) => ({ id, name, prefix })));
    const v1 = call(site, "getLabelsForContent", { id: pageId, prefix: "team" }).body as LabelArray;
    expect(v1.results.map((l) => l.name)).toEqual(["sre"]);
  });

  it("accepts a single label object, and adding an existing label is a no-op", () => {
    const { site, pageId } = fixture();
    const first = call(site, "addLabelsToContent", { id: pageId }, { prefix: "global", name: "ops" })
      .body as LabelArray;
    const labelsBefore = [...site.entries("pageLabels")];
    const again = call(site, "addLabelsToContent", { id: pageId }, [{ prefix: "global", name: "OPS" }]);
    expect(again.status).toBe(200);
    expect((again.body as LabelArray).results).toEqual(first.results);
    expect([...site.entries("pageLabels")]).toEqual(labelsBefore);
  });

  it("shares one label id between pages that carry the same label", () => {
    const { site, pageId } = fixture();
    const other = (
      call(site, "getPages", { title: "Rollback Runbook" }).body as { results: { id: string }[] }
    ).results[0]!.id;
    const a = (
      call(site, "addLabelsToContent", { id: pageId }, { prefix: "global", name: "shared" })
        .body as LabelArray
    ).results[0]!;
    const b = (
      call(site, "addLabelsToContent", { id: other }, { prefix: "global", name: "shared" }).body as LabelArray
    ).results.find((l) => l.name === "shared")!;
    expect(b.id).toBe(a.id);
  });

  it("removes labels by path and by query (with a prefix), answering 204", () => {
    const { site, pageId } = fixture();
    call(site, "addLabelsToContent", { id: pageId }, [
      { prefix: "global", name: "a" },
      { prefix: "global", name: "b" },
      { prefix: "my", name: "c" },
    ]);
    const byPath = call(site, "removeLabelFromContent", { id: pageId, label: "A" });
    expect(byPath).toMatchObject({ status: 204, body: undefined });
    expect(call(site, "removeLabelFromContentUsingQueryParameter", { id: pageId, name: "my:c" }).status).toBe(
      204,
    );
    const left = call(site, "getPageLabels", { id: pageId }).body as V2Labels;
    expect(left.results.map((l) => l.name)).toEqual(["b"]);
  });

  it("rejects invalid labels, prefixes and missing pages with v1 errors and no change", () => {
    const { site, pageId } = fixture();
    for (const name of ["two words", "a.b", "x:y", "q?", "", "a".repeat(256)])
      v1Error(
        site,
        () => call(site, "addLabelsToContent", { id: pageId }, [{ prefix: "global", name }]),
        400,
        /Label/,
      );
    v1Error(
      site,
      () =>
        call(site, "addLabelsToContent", { id: pageId }, [
          { prefix: "global", name: "ok" },
          { prefix: "global", name: "not ok" },
        ]),
      400,
      /contains invalid characters/,
    );
    v1Error(
      site,
      () => call(site, "addLabelsToContent", { id: pageId }, { prefix: "system", name: "x" }),
      400,
      /Invalid label prefix/,
    );
    v1Error(site, () => call(site, "addLabelsToContent", { id: pageId }, { name: "x" }), 400, /prefix/);
    v1Error(
      site,
      () => call(site, "addLabelsToContent", { id: "77" }, { prefix: "global", name: "x" }),
      404,
      /^No content found with id: ContentId\{id=77\}$/,
    );
    v1Error(site, () => call(site, "getLabelsForContent", { id: "77" }), 404, /No content found/);
    v1Error(site, () => call(site, "removeLabelFromContent", { id: pageId, label: "absent" }), 404, /absent/);
    v1Error(site, () => call(site, "removeLabelFromContent", { id: pageId, label: "a/b" }), 400, /'\/'/);
    v1Error(site, () => call(site, "removeLabelFromContentUsingQueryParameter", { id: pageId }), 400, /name/);
    v1Error(site, () => call(site, "getLabelsForContent", { id: "abc" }), 404, /ContentId\{id=abc\}/);
  });
});

describe("getPageLabels", () => {
  it("filters by prefix, sorts by name and pages with a cursor", () => {
    const { site, pageId } = fixture();
    call(
      site,
      "addLabelsToContent",
      { id: pageId },
      ["d", "b", "a", "c"].map((name) => ({ prefix: "global", name })),
    );
    call(site, "addLabelsToContent", { id: pageId }, { prefix: "team", name: "z" });
    const team = call(site, "getPageLabels", { id: pageId, prefix: "team" }).body as V2Labels;
    expect(team.results.map((l) => l.name)).toEqual(["z"]);
    const first = call(site, "getPageLabels", { id: pageId, sort: "name", limit: 3 }).body as V2Labels;
    expect(first.results.map((l) => l.name)).toEqual(["a", "b", "c"]);
    expect(first._links.next).toMatch(new RegExp(`^/wiki/api/v2/pages/${pageId}/labels\\?sort=name&cursor=`));
    const next = Object.fromEntries(new URL(first._links.next!, "http://x").searchParams);
    const second = call(site, "getPageLabels", { id: pageId, ...next }).body as V2Labels;
    expect(second.results.map((l) => l.name)).toEqual(["d", "z"]);
    expect(second._links.next).toBeUndefined();
  });

  it("answers an unknown page with 404", () => {
    const { site } = fixture();
    const before = site.hash();
    expect(call(site, "getPageLabels", { id: "5" })).toMatchObject({
      status: 404,
      body: { errors: [{ status: 404, code: "NOT_FOUND", title: "Not Found", detail: null }] },
    });
    expect(site.hash()).toBe(before);
  });
});
