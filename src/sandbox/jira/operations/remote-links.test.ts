import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { createSite } from "../../fixtures/default-site.ts";

const page = { url: "https://wiki.example.com/pages/123", title: "Runbook" };

describe("createOrUpdateRemoteIssueLink", () => {
  it("creates a link (201, numeric id) and lists it", () => {
    const site = createSite({ seed: 1 });
    const res = call(
      site,
      "createOrUpdateRemoteIssueLink",
      { issueIdOrKey: "eng-1" },
      {
        globalId: "wiki-123",
        application: { type: "com.atlassian.confluence", name: "Confluence" },
        relationship: "documented in",
        object: { ...page, summary: "How to recover", icon: { url16x16: "https://wiki.example.com/i.png" } },
      },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: 10000, self: "http://sim.test/rest/api/3/issue/ENG-1/remotelink/10000" });
    const list = call(site, "getRemoteIssueLinks", { issueIdOrKey: "ENG-1" });
    expect(list.body).toEqual([
      {
        id: 10000,
        self: "http://sim.test/rest/api/3/issue/ENG-1/remotelink/10000",
        globalId: "wiki-123",
        application: { type: "com.atlassian.confluence", name: "Confluence" },
        relationship: "documented in",
        object: {
          ...page,
          summary: "How to recover",
          icon: { url16x16: "https://wiki.example.com/i.png" },
          status: { icon: {} },
        },
      },
    ]);
    expect(call(site, "getRemoteIssueLinks", { issueIdOrKey: "ENG-2" }).body).toEqual([]);
  });

  it("updates the link with the same globalId (200), clearing fields not sent", () => {
    const site = createSite({ seed: 1 });
    call(
      site,
      "createOrUpdateRemoteIssueLink",
      { issueIdOrKey: "ENG-1" },
      {
        globalId: "g",
        relationship: "mentioned in",
        object: { ...page, summary: "old" },
      },
    );
    const res = call(
      site,
      "createOrUpdateRemoteIssueLink",
      { issueIdOrKey: "ENG-1" },
      {
        globalId: "g",
        object: { url: "https://wiki.example.com/pages/456", title: "Runbook v2" },
      },
    );
    expect(res.status).toBe(200);
    expect((res.body as { id: number }).id).toBe(10000);
    const one = call(site, "getRemoteIssueLinks", { issueIdOrKey: "ENG-1", globalId: "g" });
    expect(one.body).toEqual({
      id: 10000,
      self: "http://sim.test/rest/api/3/issue/ENG-1/remotelink/10000",
      globalId: "g",
      application: {},
      object: {
        url: "https://wiki.example.com/pages/456",
        title: "Runbook v2",
        icon: {},
        status: { icon: {} },
      },
    });
    expect(site.size("remoteLinks")).toBe(1);
  });

  it("creates a second link without globalId or with a new one", () => {
    const site = createSite({ seed: 1 });
    call(site, "createOrUpdateRemoteIssueLink", { issueIdOrKey: "ENG-1" }, { object: page });
    const again = call(site, "createOrUpdateRemoteIssueLink", { issueIdOrKey: "ENG-1" }, { object: page });
    expect(again.status).toBe(201);
    expect((again.body as { id: number }).id).toBe(10001);
  });

  it("answers Jira's 400 and 404 bodies and changes nothing", () => {
    const site = createSite({ seed: 1 });
    const hash = site.hash();
    const cases: [string, unknown, number, unknown][] = [
      [
        "ENG-1",
        { object: { url: page.url } },
        400,
        { errorMessages: [], errors: { title: "'title' is required." } },
      ],
      [
        "ENG-1",
        { object: { title: "x" } },
        400,
        { errorMessages: [], errors: { url: "'url' is required." } },
      ],
      [
        "ENG-1",
        { object: { url: "wiki/page", title: "x" } },
        400,
        { errorMessages: [], errors: { url: "'url' is not a valid URL." } },
      ],
      [
        "ENG-1",
        { object: { url: "ftp://files.example.com/a", title: "x" } },
        400,
        { errorMessages: [], errors: { url: "'url' is not a valid URL." } },
      ],
      ["ENG-1", {}, 400, { errorMessages: [], errors: { object: "'object' is required." } }],
      [
        "ENG-9999",
        { object: page },
        404,
        { errorMessages: ["Issue does not exist or you do not have permission to see it."], errors: {} },
      ],
    ];
    for (const [issueIdOrKey, body, status, expected] of cases) {
      const res = call(site, "createOrUpdateRemoteIssueLink", { issueIdOrKey }, body);
      expect(res.status).toBe(status);
      expect(res.body).toEqual(expected);
    }
    expect(site.hash()).toBe(hash);
  });
});

describe("getRemoteIssueLinks", () => {
  it("404s for an unknown globalId or issue", () => {
    const site = createSite({ seed: 1 });
    const hash = site.hash();
    const res = call(site, "getRemoteIssueLinks", { issueIdOrKey: "ENG-1", globalId: "nope" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      errorMessages: ["No remote issue link with global ID 'nope' exists on this issue."],
      errors: {},
    });
    expect(call(site, "getRemoteIssueLinks", { issueIdOrKey: "NOPE-1" }).status).toBe(404);
    expect(site.hash()).toBe(hash);
  });
});
