import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { createSite } from "../../fixtures/default-site.ts";

describe("getIssue", () => {
  const site = createSite({ seed: 1 });

  it("returns the issue bean with all fields by default, conforming to the spec", () => {
    const res = call(site, "getIssue", { issueIdOrKey: "ENG-1" });
    expect(res.status).toBe(200);
    const body = res.body as { key: string; fields: Record<string, unknown> };
    expect(body.key).toBe("ENG-1");
    expect(body.fields).toHaveProperty("summary");
    expect(body.fields).toHaveProperty("subtasks");
  });

  it("finds issues by lower-case key and by numeric id", () => {
    const byKey = call(site, "getIssue", { issueIdOrKey: "eng-2" }).body as { id: string; key: string };
    expect(byKey.key).toBe("ENG-2");
    expect((call(site, "getIssue", { issueIdOrKey: byKey.id }).body as { key: string }).key).toBe("ENG-2");
  });

  it("selects fields and expands names and transitions", () => {
    const res = call(site, "getIssue", {
      issueIdOrKey: "ENG-1",
      fields: "summary,status",
      expand: "names,transitions",
    });
    const body = res.body as { fields: object; names: object; transitions: unknown[] };
    expect(Object.keys(body.fields).sort()).toEqual(["status", "summary"]);
    expect(body.names).toEqual({ summary: "Summary", status: "Status" });
    expect(body.transitions.length).toBeGreaterThan(0);
  });

  it("answers an unknown issue with Jira's 404 body", () => {
    const res = call(site, "getIssue", { issueIdOrKey: "ENG-9999" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      errorMessages: ["Issue does not exist or you do not have permission to see it."],
      errors: {},
    });
  });
});
