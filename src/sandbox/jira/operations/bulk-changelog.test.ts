import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { createSite } from "../../fixtures/default-site.ts";
import type { Site } from "../../site.ts";
import { TO_DO } from "../catalog.ts";

interface Page {
  issueChangeLogs: { issueId: string; changeHistories: { id: string; items: { fieldId: string }[] }[] }[];
  nextPageToken?: string;
}

const bulk = (site: Site, body: Record<string, unknown>) => call(site, "getBulkChangelogs", {}, body);
const page = (site: Site, body: Record<string, unknown>) => {
  const result = bulk(site, body);
  expect(result.status).toBe(200);
  return result.body as Page;
};
/** The page as `issueId:entryId[fieldIds]` in answer order. */
const entries = (p: Page) =>
  p.issueChangeLogs.flatMap((log) =>
    log.changeHistories.map((c) => `${log.issueId}:${c.id}[${c.items.map((i) => i.fieldId).join(",")}]`),
  );

/** Two To Do issues: A started, B started and relabelled, then A done (each a day apart). */
function twoWalkedIssues() {
  const site = createSite({ seed: 1 });
  const [a, b] = [...site.values("issues")].filter((i) => i.statusId === TO_DO && !i.parentId);
  const step = (key: string, operationId: string, body: unknown) => {
    site.tick(86_400_000);
    expect(call(site, operationId, { issueIdOrKey: key }, body).status).toBe(204);
  };
  step(a!.key, "doTransition", { transition: { id: "21" } });
  step(b!.key, "doTransition", { transition: { id: "21" } });
  step(b!.key, "editIssue", { fields: { labels: ["bulk"] } });
  step(a!.key, "doTransition", { transition: { id: "31" } });
  return { site, a: a!, b: b! };
}

describe("getBulkChangelogs (POST /rest/api/3/changelog/bulkfetch)", () => {
  const { site, a, b } = twoWalkedIssues();
  const all = page(site, { issueIdsOrKeys: [b.key, a.id] });

  it("answers the issues' entries oldest first, grouped per issue in the order each first appears", () => {
    expect(all.issueChangeLogs.map((log) => log.issueId)).toEqual([a.id, b.id]);
    const ids = entries(all).map((e) => e.split(":")[1]!.split("[")[0]!);
    expect(entries(all)).toHaveLength(4);
    // A's two entries first (its first change is the oldest), then B's two; ids were given in time order.
    expect(ids.slice(0, 2).map(Number)[0]).toBeLessThan(ids.slice(2).map(Number)[0]!);
    expect(all.nextPageToken).toBeUndefined();
    expect(page(site, { issueIdsOrKeys: [a.key.toLowerCase(), "NOPE-1", "999999"] }).issueChangeLogs).toEqual(
      [all.issueChangeLogs[0]],
    );
  });

  it("reads null and an empty field list as no filter, as a client's first request sends them", () => {
    const none = page(site, {
      issueIdsOrKeys: [b.key, a.id],
      fieldIds: [],
      nextPageToken: null,
      maxResults: null,
    });
    expect(entries(none)).toEqual(entries(all));
    expect(entries(page(site, { issueIdsOrKeys: [b.key, a.id], fieldIds: null }))).toEqual(entries(all));
  });

  it("keeps only the items of the fields asked for, leaving out entries with none", () => {
    const labels = page(site, { issueIdsOrKeys: [a.key, b.key], fieldIds: ["labels"] });
    expect(entries(labels)).toEqual([expect.stringMatching(new RegExp(`^${b.id}:\\d+\\[labels\\]$`))]);
    const status = page(site, { issueIdsOrKeys: [a.key, b.key], fieldIds: ["status"] });
    expect(entries(status)).toHaveLength(3);
    expect(entries(status).every((e) => e.endsWith("[status]"))).toBe(true);
  });

  it("pages by maxResults with a nextPageToken bound to the request", () => {
    // Entry ids count up with time, so the oldest three are the three lowest.
    const byAge = (list: string[]) =>
      [...list].sort(
        (x, y) => Number(x.split(":")[1]!.split("[")[0]) - Number(y.split(":")[1]!.split("[")[0]),
      );
    const request = { issueIdsOrKeys: [b.key, a.id], maxResults: 3 };
    const first = page(site, request);
    expect(byAge(entries(first))).toEqual(byAge(entries(all)).slice(0, 3));
    expect(first.issueChangeLogs.map((log) => log.issueId)).toEqual([a.id, b.id]);
    expect(first.nextPageToken).toEqual(expect.any(String));
    const second = page(site, { ...request, nextPageToken: first.nextPageToken });
    expect(entries(second)).toEqual(byAge(entries(all)).slice(3));
    expect(second.nextPageToken).toBeUndefined();
    const replayed = bulk(site, { issueIdsOrKeys: [a.key], nextPageToken: first.nextPageToken });
    expect(replayed.status).toBe(400);
    expect(replayed.body).toEqual({
      errorMessages: ["The provided nextPageToken is invalid or has expired."],
      errors: {},
    });
  });

  it.each([
    ["no issues", { issueIdsOrKeys: [] }],
    ["more than 1000 issues", { issueIdsOrKeys: Array.from({ length: 1001 }, (_, i) => `ENG-${i + 1}`) }],
    [
      "more than 10 fields",
      { issueIdsOrKeys: ["ENG-1"], fieldIds: Array.from({ length: 11 }, (_, i) => `f${i}`) },
    ],
    ["a repeated field", { issueIdsOrKeys: ["ENG-1"], fieldIds: ["status", "status"] }],
    ["maxResults 0", { issueIdsOrKeys: ["ENG-1"], maxResults: 0 }],
    ["an unknown property", { issueIdsOrKeys: ["ENG-1"], expand: "x" }],
    ["no body", undefined],
  ])("refuses %s with a 400, changing nothing", (_, body) => {
    const before = site.hash();
    const result = call(site, "getBulkChangelogs", {}, body);
    expect(result.status).toBe(400);
    expect(site.hash()).toBe(before);
  });
});
