import { describe, expect, it } from "vitest";
import { executeOperation } from "./execute.ts";
import { AGENT_ACCOUNT_ID, createSite } from "./fixtures/default-site.ts";
import { findOperation } from "./operations.ts";
import type { Site } from "./site.ts";

const ctx = { baseUrl: "http://sim.test", accountId: AGENT_ACCOUNT_ID };
const run = (site: Site, id: string, params: Record<string, string>, body?: unknown) =>
  executeOperation(site, findOperation(id)!, { params, body }, ctx);

/** Writes over several tables, including replacing and deleting records. */
function play(site: Site): number[] {
  const fields = { project: { key: "ENG" }, issuetype: { name: "Task" }, summary: "New" };
  const statuses = [
    run(site, "createIssue", {}, { fields }).status,
    run(site, "addComment", { issueIdOrKey: "ENG-1" }, { body: doc("a comment") }).status,
    run(site, "editIssue", { issueIdOrKey: "ENG-2" }, { fields: { summary: "Renamed" } }).status,
    run(site, "createIssue", {}, { fields: { ...fields, summary: "" } }).status, // refused: changes nothing
  ];
  expect(() =>
    site.transact(() => {
      throw new Error("discarded");
    }),
  ).toThrow("discarded");
  return statuses;
}

const doc = (text: string) => ({
  type: "doc",
  version: 1,
  content: [{ type: "paragraph", content: [{ type: "text", text }] }],
});

describe("Site.digest (incremental state hash)", () => {
  it("kept up to date write by write equals the digest computed from scratch", () => {
    const warm = createSite({ seed: 3 });
    const start = warm.digest(); // the sums exist from here on and are updated by each write
    expect(play(warm)).toEqual([201, 201, 204, 400]);
    const cold = createSite({ seed: 3 }); // no digest yet: computed once, after the writes
    play(cold);
    expect(warm.hash()).toBe(cold.hash());
    expect(warm.digest()).toBe(cold.digest());
    expect(warm.digest()).not.toBe(start);
  });

  it("tells apart a fork that wrote from its parent, and back again when the state matches", () => {
    const parent = createSite({ seed: 1 });
    const before = parent.digest();
    const child = parent.fork();
    expect(child.digest()).toBe(before);
    const issue = parent.get("issues", [...parent.values("issues")][0]!.id)!;
    child.put("issues", issue.id, { ...issue, summary: "changed" });
    expect(child.digest()).not.toBe(before);
    expect(parent.digest()).toBe(before);
    child.put("issues", issue.id, issue);
    expect(child.digest()).toBe(before);
    child.remove("issues", issue.id);
    expect(child.digest()).not.toBe(before);
    child.put("issues", issue.id, issue);
    expect(child.digest()).toBe(before); // a multiset hash: order of insertion does not matter
  });

  it("changes when only the counters (ids, clock) change", () => {
    const site = createSite({ seed: 1 });
    const before = site.digest();
    site.tick(1);
    expect(site.digest()).not.toBe(before);
  });
});
