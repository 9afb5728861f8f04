import { describe, expect, it } from "vitest";
import { diff } from "./diff.ts";
import { createSite } from "./fixtures/default-site.ts";

describe("Site fork, transact, hash and diff", () => {
  it("a fork is independent of its parent in both directions", () => {
    const parent = createSite({ seed: 1 });
    const before = parent.hash();
    const child = parent.fork();
    const issue = [...child.values("issues")][0]!;
    child.put("issues", issue.id, { ...issue, summary: "changed in child" });
    expect(parent.hash()).toBe(before);
    expect(parent.get("issues", issue.id)!.summary).not.toBe("changed in child");
    parent.put("issues", issue.id, { ...issue, summary: "changed in parent" });
    expect(child.get("issues", issue.id)!.summary).toBe("changed in child");
  });

  it("a fork's hash equals its parent's until one of them writes", () => {
    const parent = createSite({ seed: 1 });
    const child = parent.fork();
    expect(child.hash()).toBe(parent.hash());
    child.tick(1);
    expect(child.hash()).not.toBe(parent.hash());
  });

  it("transact keeps the change when it returns and discards it when it throws", () => {
    const site = createSite({ seed: 1 });
    const issue = [...site.values("issues")][0]!;
    site.transact((draft) => draft.put("issues", issue.id, { ...issue, summary: "kept" }));
    expect(site.get("issues", issue.id)!.summary).toBe("kept");
    const before = site.hash();
    expect(() =>
      site.transact((draft) => {
        draft.put("issues", issue.id, { ...issue, summary: "discarded" });
        draft.nextId("issue", 0);
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(site.hash()).toBe(before);
  });

  it("diff lists created, updated (with the changed fields) and deleted records", () => {
    const before = createSite({ seed: 1 });
    const after = before.fork();
    const [first, second] = [...after.values("issues")];
    after.put("issues", first!.id, { ...first!, summary: "new summary", labels: ["x"] });
    after.remove("issues", second!.id);
    after.put("comments", "99999", {
      id: "99999",
      issueId: first!.id,
      authorId: first!.reporterId,
      body: first!.description!,
      created: 0,
      updated: 0,
    });
    const changes = diff(before, after);
    expect(changes.map((c) => `${c.kind} ${c.table} ${c.id}`).sort()).toEqual(
      [`created comments 99999`, `deleted issues ${second!.id}`, `updated issues ${first!.id}`].sort(),
    );
    const updated = changes.find((c) => c.kind === "updated");
    expect(updated && "fields" in updated ? updated.fields : []).toEqual(["labels", "summary"]);
  });

  it("an unchanged fork has an empty diff", () => {
    const site = createSite({ seed: 4 });
    expect(diff(site, site.fork())).toEqual([]);
  });
});
