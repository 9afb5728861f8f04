import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { AGENT_ACCOUNT_ID, createSite } from "../../fixtures/default-site.ts";
import { paragraphDoc } from "../../fixtures/text.ts";
import { findIssue } from "../store.ts";
import { SELF_LINK } from "./issue-links.ts";

type LinkEntry = {
  id: string;
  type: { name: string; inward: string; outward: string };
  inwardIssue?: { key: string };
  outwardIssue?: { key: string };
};

function linksOf(site: ReturnType<typeof createSite>, key: string): LinkEntry[] {
  const res = call(site, "getIssue", { issueIdOrKey: key, fields: "issuelinks" });
  return (res.body as { fields: { issuelinks: LinkEntry[] } }).fields.issuelinks;
}

describe("getIssueLinkTypes", () => {
  it("lists the default link types with self links", () => {
    const res = call(createSite({ seed: 1 }), "getIssueLinkTypes", {});
    const types = (res.body as { issueLinkTypes: Record<string, string>[] }).issueLinkTypes;
    expect(types.map((t) => t.name)).toEqual(["Blocks", "Cloners", "Duplicate", "Relates"]);
    expect(types[0]).toEqual({
      id: "10000",
      name: "Blocks",
      inward: "is blocked by",
      outward: "blocks",
      self: "http://sim.test/rest/api/3/issueLinkType/10000",
    });
  });
});

describe("linkIssues", () => {
  it("links by type name and keys, answers 201 with no body, and shows on both issues", () => {
    const site = createSite({ seed: 1 });
    const before = findIssue(site, "ENG-5")!.updated;
    const res = call(
      site,
      "linkIssues",
      {},
      { type: { name: "Blocks" }, inwardIssue: { key: "ENG-5" }, outwardIssue: { key: "eng-6" } },
    );
    expect(res.status).toBe(201);
    expect(res.body).toBeUndefined();
    const onBlocker = linksOf(site, "ENG-5").filter((l) => l.outwardIssue?.key === "ENG-6");
    expect(onBlocker).toHaveLength(1);
    expect(onBlocker[0]!.type.outward).toBe("blocks");
    const onBlocked = linksOf(site, "ENG-6").filter((l) => l.inwardIssue?.key === "ENG-5");
    expect(onBlocked).toHaveLength(1);
    expect(onBlocked[0]!.id).toBe(onBlocker[0]!.id);
    expect(findIssue(site, "ENG-5")!.updated).toBeGreaterThan(before);
  });

  it("links by type id and issue ids, across projects", () => {
    const site = createSite({ seed: 1 });
    const ops = findIssue(site, "OPS-1")!;
    call(
      site,
      "linkIssues",
      {},
      { type: { id: "10003" }, inwardIssue: { id: ops.id }, outwardIssue: { key: "ENG-2" } },
    );
    expect(linksOf(site, "OPS-1").map((l) => [l.type.name, l.outwardIssue?.key])).toContainEqual([
      "Relates",
      "ENG-2",
    ]);
  });

  it("creates nothing new for a duplicate request but still adds its comment to the inward issue", () => {
    const site = createSite({ seed: 1 });
    const body = {
      type: { name: "Duplicate" },
      inwardIssue: { key: "ENG-7" },
      outwardIssue: { key: "ENG-8" },
    };
    call(site, "linkIssues", {}, body);
    const links = site.size("issueLinks");
    const res = call(
      site,
      "linkIssues",
      {},
      { ...body, comment: { body: paragraphDoc("Same root cause.") } },
    );
    expect(res.status).toBe(201);
    expect(site.size("issueLinks")).toBe(links);
    const comments = call(site, "getComments", { issueIdOrKey: "ENG-7" }).body as {
      comments: { author: { accountId: string }; body: unknown }[];
    };
    expect(comments.comments.at(-1)).toMatchObject({
      author: { accountId: AGENT_ACCOUNT_ID },
      body: paragraphDoc("Same root cause."),
    });
  });

  it("takes a null comment as no comment (what the jira Python client sends)", () => {
    const site = createSite({ seed: 1 });
    const comments = () => site.size("comments");
    const before = comments();
    const res = call(
      site,
      "linkIssues",
      {},
      {
        type: { name: "Relates" },
        inwardIssue: { key: "ENG-3" },
        outwardIssue: { key: "ENG-4" },
        comment: null,
      },
    );
    expect(res.status).toBe(201);
    expect(linksOf(site, "ENG-3").map((l) => [l.type.name, l.outwardIssue?.key])).toContainEqual([
      "Relates",
      "ENG-4",
    ]);
    expect(comments()).toBe(before);
  });

  it("answers Jira's errors and changes nothing", () => {
    const site = createSite({ seed: 1 });
    const hash = site.hash();
    const ok = { inwardIssue: { key: "ENG-1" }, outwardIssue: { key: "ENG-2" } };
    const cases: [unknown, number, unknown][] = [
      [
        { type: { name: "blocks" }, ...ok },
        404,
        { errorMessages: ["No issue link type with name 'blocks' found."], errors: {} },
      ],
      [
        { type: { id: "99" }, ...ok },
        404,
        { errorMessages: ["No issue link type with id '99' found."], errors: {} },
      ],
      [
        { type: { name: "Blocks" }, inwardIssue: { key: "ENG-9999" }, outwardIssue: { key: "ENG-2" } },
        404,
        { errorMessages: ["Issue does not exist or you do not have permission to see it."], errors: {} },
      ],
      [
        { type: { name: "Blocks" }, inwardIssue: { key: "ENG-1" }, outwardIssue: { key: "eng-1" } },
        400,
        { errorMessages: [SELF_LINK], errors: {} },
      ],
      [
        { type: { name: "Blocks" }, ...ok, comment: { body: "plain" } },
        400,
        {
          errorMessages: [],
          errors: {
            comment: "Operation value must be an Atlassian Document (see the Atlassian Document Format)",
          },
        },
      ],
      [ok, 400, { errorMessages: [], errors: { type: "'type' is required." } }],
    ];
    for (const [body, status, expected] of cases) {
      const res = call(site, "linkIssues", {}, body);
      expect(res.status).toBe(status);
      expect(res.body).toEqual(expected);
    }
    expect(site.hash()).toBe(hash);
  });
});
