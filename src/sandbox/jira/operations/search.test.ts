import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { AGENT_ACCOUNT_ID, createSite } from "../../fixtures/default-site.ts";
import type { Site } from "../../site.ts";
import { INVALID_PAGE_TOKEN } from "../jql/page-token.ts";
import { searchIssues } from "../jql/query.ts";
import { insertIssue } from "../store.ts";
import { MAX_RESULTS_RANGE } from "./search.ts";

const GET = "searchAndReconsileIssuesUsingJql";
const POST = "searchAndReconsileIssuesUsingJqlPost";
const ALL = "project in (ENG, OPS, MOB, WEB)";

interface Page {
  issues: { id: string; key?: string; fields?: Record<string, unknown>; transitions?: unknown[] }[];
  isLast: boolean;
  nextPageToken?: string;
  names?: Record<string, string>;
}

const get = (site: Site, params: Record<string, unknown>) => call(site, GET, params);
const post = (site: Site, body: unknown) => call(site, POST, {}, body);

/** Runs a call that must fail; checks the status, that the body is Jira's and that nothing changed. */
function refused(site: Site, run: () => ReturnType<typeof call>, status = 400) {
  const before = site.hash();
  const res = run();
  expect(res.status).toBe(status);
  expect(site.hash()).toBe(before);
  return res.body as { errorMessages: string[]; errors: Record<string, string> };
}

describe("JQL search (GET and POST /rest/api/3/search/jql)", () => {
  const site = createSite({ seed: 1 });

  it("returns only ids by default, with isLast and no total", () => {
    const res = get(site, { jql: "project = ENG" });
    expect(res.status).toBe(200);
    const body = res.body as Page;
    expect(Object.keys(body).sort()).toEqual(["isLast", "issues"]);
    expect(body.isLast).toBe(true);
    expect(body.issues.length).toBe(15);
    for (const issue of body.issues) expect(Object.keys(issue)).toEqual(["id"]);
    const expected = searchIssues(site, "project = ENG", AGENT_ACCOUNT_ID).map((i) => i.id);
    expect(body.issues.map((i) => i.id)).toEqual(expected);
  });

  it("pages through the results with nextPageToken, without duplicates or gaps", () => {
    const expected = searchIssues(site, ALL, AGENT_ACCOUNT_ID).map((i) => i.id);
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = get(site, { jql: ALL, maxResults: "7", ...(token ? { nextPageToken: token } : {}) })
        .body as Page;
      pages++;
      seen.push(...page.issues.map((i) => i.id));
      expect(page.isLast).toBe(page.nextPageToken === undefined);
      if (!page.isLast) expect(page.issues).toHaveLength(7);
      token = page.nextPageToken;
    } while (token);
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 7));
  });

  it("lets the page size change between pages", () => {
    const first = post(site, { jql: ALL, maxResults: 10 }).body as Page;
    const second = post(site, { jql: ALL, maxResults: 3, nextPageToken: first.nextPageToken }).body as Page;
    const expected = searchIssues(site, ALL, AGENT_ACCOUNT_ID).map((i) => i.id);
    expect(second.issues.map((i) => i.id)).toEqual(expected.slice(10, 13));
  });

  it("reads a numeric string maxResults in the body, and ends cleanly when a page's issues are gone", () => {
    expect((post(site, { jql: ALL, maxResults: "3" }).body as Page).issues).toHaveLength(3);
    const first = post(site, { jql: "project = ENG", maxResults: 10 }).body as Page;
    const fork = site.fork();
    for (const issue of [...fork.values("issues")].slice(0, 10)) fork.remove("issues", issue.id);
    expect(post(fork, { jql: "project = ENG", nextPageToken: first.nextPageToken }).body).toEqual({
      issues: [],
      isLast: true,
    });
  });

  it("answers GET and POST alike", () => {
    const cases = [
      { jql: "project = OPS ORDER BY key", fields: ["summary", "status"], maxResults: 4, expand: "names" },
      { jql: "labels is not EMPTY", fields: ["*all", "-comment"], maxResults: 5, expand: "transitions" },
      { jql: "assignee is EMPTY" },
    ];
    for (const body of cases) {
      const viaPost = post(site, body).body as Page;
      const viaGet = get(site, {
        ...body,
        fields: body.fields?.join(","),
        maxResults: body.maxResults === undefined ? undefined : String(body.maxResults),
      }).body as Page;
      expect(viaGet).toEqual(viaPost);
      if (viaPost.nextPageToken) {
        const next = { ...body, nextPageToken: viaPost.nextPageToken };
        expect(get(site, { ...next, fields: body.fields }).body).toEqual(post(site, next).body);
      }
    }
  });

  it("returns the requested fields, all fields, or all but excluded ones", () => {
    const picked = get(site, { jql: "key = ENG-1", fields: "summary,status" }).body as Page;
    const issue = picked.issues[0]!;
    expect(issue.key).toBe("ENG-1");
    expect(Object.keys(issue.fields!).sort()).toEqual(["status", "summary"]);
    const all = post(site, { jql: "key = ENG-1", fields: ["*all"] }).body as Page;
    expect(all.issues[0]!.fields).toHaveProperty("comment");
    expect(all.issues[0]!.fields).toHaveProperty("subtasks");
    const without = post(site, { jql: "key = ENG-1", fields: ["*all", "-comment"] }).body as Page;
    expect(without.issues[0]!.fields).not.toHaveProperty("comment");
    const navigable = post(site, { jql: "key = ENG-1", fields: ["*navigable"] }).body as Page;
    expect(navigable.issues[0]!.fields).not.toHaveProperty("comment");
    expect(navigable.issues[0]!.fields).toHaveProperty("assignee");
  });

  it("expands names (for the whole page) and transitions (per issue)", () => {
    const body = post(site, {
      jql: "project = ENG",
      fields: ["summary", "assignee"],
      expand: "names,transitions",
      maxResults: 2,
    }).body as Page;
    expect(body.names).toEqual({ summary: "Summary", assignee: "Assignee" });
    for (const issue of body.issues) expect(issue.transitions!.length).toBeGreaterThan(0);
    const ids = get(site, { jql: "key = ENG-1", expand: "transitions" }).body as Page;
    expect(Object.keys(ids.issues[0]!).sort()).toEqual(["id", "transitions"]);
  });

  it("caps pages with fields at 100 issues and id-only pages at 5000", () => {
    const big = site.fork();
    const eng = [...big.values("projects")].find((p) => p.key === "ENG")!;
    const template = [...big.values("issues")][0]!;
    for (let n = 0; n < 150; n++) {
      const { id: _id, key: _key, projectId: _p, ...fields } = template;
      insertIssue(big, eng, { ...fields, summary: `Bulk issue ${n}` });
    }
    const withFields = post(big, { jql: "project = ENG", fields: ["summary"], maxResults: 500 }).body as Page;
    expect(withFields.issues).toHaveLength(100);
    expect(withFields.isLast).toBe(false);
    const rest = post(big, {
      jql: "project = ENG",
      fields: ["summary"],
      maxResults: 500,
      nextPageToken: withFields.nextPageToken,
    }).body as Page;
    expect(rest.issues).toHaveLength(65);
    expect(rest.isLast).toBe(true);
    const ids = post(big, { jql: "project = ENG", maxResults: 5000 }).body as Page;
    expect(ids.issues).toHaveLength(165);
    expect(ids.isLast).toBe(true);
    const keys = post(big, { jql: "project = ENG", fields: ["key"], maxResults: 5000 }).body as Page;
    expect(keys.issues).toHaveLength(165);
  });

  it("accepts the parameters it has nothing to do with", () => {
    const res = get(site, {
      jql: "key = ENG-1",
      properties: "a,b",
      fieldsByKeys: "true",
      failFast: "false",
      reconcileIssues: "10000,10001",
    });
    expect((res.body as Page).issues).toEqual([{ id: "10000" }]);
    expect(post(site, { jql: "key = ENG-1", reconcileIssues: [10000], fieldsByKeys: false }).status).toBe(
      200,
    );
  });

  it("refuses a token issued for another query, and a made-up one", () => {
    const first = get(site, { jql: ALL, maxResults: "5" }).body as Page;
    expect(
      refused(site, () => get(site, { jql: "project = ENG", nextPageToken: first.nextPageToken })),
    ).toEqual({
      errorMessages: [INVALID_PAGE_TOKEN],
      errors: {},
    });
    for (const token of ["abc", "bm90LWpzb24", Buffer.from('{"o":-1,"q":"x"}').toString("base64url"), "%%%"])
      expect(refused(site, () => post(site, { jql: ALL, nextPageToken: token })).errorMessages).toEqual([
        INVALID_PAGE_TOKEN,
      ]);
  });

  it("refuses maxResults outside 1-5000, after checking the token", () => {
    for (const maxResults of [0, -1, 5001])
      expect(refused(site, () => post(site, { jql: ALL, maxResults }))).toEqual({
        errorMessages: [MAX_RESULTS_RANGE],
        errors: {},
      });
    expect(refused(site, () => get(site, { maxResults: "0" })).errorMessages).toEqual([MAX_RESULTS_RANGE]);
    expect(
      refused(site, () => get(site, { jql: ALL, maxResults: "0", nextPageToken: "x" })).errorMessages,
    ).toEqual([INVALID_PAGE_TOKEN]);
    expect(post(site, { jql: ALL, maxResults: 5000 }).status).toBe(200);
  });

  it("refuses unbounded queries on both methods", () => {
    const unbounded = {
      errorMessages: [
        "Unbounded JQL queries are not allowed here. Please add a search restriction to your query.",
      ],
      errors: {},
    };
    expect(refused(site, () => get(site, {}))).toEqual(unbounded);
    expect(refused(site, () => get(site, { jql: "order by key desc" }))).toEqual(unbounded);
    expect(refused(site, () => post(site, {}))).toEqual(unbounded);
    expect(refused(site, () => post(site, { jql: null }))).toEqual(unbounded);
    expect(refused(site, () => post(site, { jql: "  " }))).toEqual(unbounded);
  });

  it("answers bad JQL with Jira's 400 body", () => {
    expect(refused(site, () => get(site, { jql: "project = NOPE" }))).toEqual({
      errorMessages: ["The value 'NOPE' does not exist for the field 'project'."],
      errors: {},
    });
    expect(refused(site, () => post(site, { jql: "project = ENG AND" }))).toEqual({
      errorMessages: ["Error in the JQL Query: Expecting a field name at the end of the query."],
      errors: {},
    });
  });

  it("refuses a body field the request bean does not declare", () => {
    const body = refused(site, () => post(site, { jql: ALL, startAt: 10 }));
    expect(body.errorMessages.join(" ")).toContain("startAt");
  });

  it("answers garbage JQL with a 400 on both methods, never an exception", () => {
    const garbage = [
      '"',
      "(",
      ")",
      "=",
      "project",
      "project = (",
      "a ~ b ~ c",
      "\\",
      "cf[",
      "ORDER BY",
      "NOT",
      "!",
      "x in ()",
      "key > ",
      "'\\u00'",
      "created > now(",
      "🙂 = 🙂",
    ];
    for (const jql of garbage) {
      expect(refused(site, () => get(site, { jql })).errorMessages.length).toBeGreaterThan(0);
      expect(refused(site, () => post(site, { jql })).errorMessages.length).toBeGreaterThan(0);
    }
  });
});

describe("countIssues (POST /rest/api/3/search/approximate-count)", () => {
  const site = createSite({ seed: 1 });

  it("counts what the same JQL finds, and refuses what the search refuses", () => {
    for (const jql of [ALL, "project = ENG", 'project = ENG AND status = "To Do"', "project = NOPE"]) {
      const res = call(site, "countIssues", {}, { jql });
      const found = jql === "project = NOPE" ? null : searchIssues(site, jql, AGENT_ACCOUNT_ID).length;
      if (found === null) expect(res.status).toBe(400);
      else expect(res).toMatchObject({ status: 200, body: { count: found } });
    }
    expect((call(site, "countIssues", {}, { jql: ALL }).body as { count: number }).count).toBeGreaterThan(10);
    expect(refused(site, () => call(site, "countIssues", {}, {})).errorMessages[0]).toMatch(/Unbounded JQL/);
    expect(
      refused(site, () => call(site, "countIssues", {}, { jql: ALL, maxResults: 5 })).errors,
    ).toBeDefined();
  });
});
