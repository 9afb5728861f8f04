import { describe, expect, it } from "vitest";
import { call } from "../../../../test/support/call.ts";
import { diff } from "../../diff.ts";
import { AGENT_ACCOUNT_ID, createSite } from "../../fixtures/default-site.ts";
import { paragraphDoc } from "../../fixtures/text.ts";
import type { Site } from "../../site.ts";
import { findIssue } from "../store.ts";

interface Change {
  id: string;
  author: { accountId: string };
  created: string;
  items: Record<string, string>[];
}
interface Page {
  values: Change[];
  total: number;
  startAt: number;
  maxResults: number;
  isLast: boolean;
  nextPage?: string;
}

const changelog = (site: Site, key: string, params: Record<string, unknown> = {}) =>
  call(site, "getChangeLogs", { issueIdOrKey: key, ...params }).body as Page;

/** An issue in To Do with no assignee (so start, assign and edit each change something). */
function unassignedToDo(site: Site) {
  return [...site.values("issues")].find(
    (i) => i.statusId === "10000" && i.assigneeId === null && !i.parentId,
  )!;
}

describe("issue history (getChangeLogs and expand=changelog)", () => {
  it("records each write's changed fields, by the caller, oldest first; fixtures and comments leave none", () => {
    const site = createSite({ seed: 1 });
    const issue = unassignedToDo(site);
    expect(changelog(site, issue.key)).toMatchObject({ values: [], total: 0, isLast: true });
    const person = [...site.values("users")].find((u) => u.accountId !== AGENT_ACCOUNT_ID)!;

    expect(call(site, "doTransition", { issueIdOrKey: issue.key }, { transition: { id: "21" } }).status).toBe(
      204,
    );
    expect(
      call(site, "assignIssue", { issueIdOrKey: issue.key }, { accountId: person.accountId }).status,
    ).toBe(204);
    const edit = { fields: { summary: "Renamed", labels: ["alpha", "beta"] } };
    expect(call(site, "editIssue", { issueIdOrKey: issue.key }, edit).status).toBe(204);
    expect(call(site, "addComment", { issueIdOrKey: issue.key }, { body: paragraphDoc("hi") }).status).toBe(
      201,
    );
    // An edit that changes nothing leaves nothing.
    expect(call(site, "editIssue", { issueIdOrKey: issue.key }, edit).status).toBe(204);

    const page = changelog(site, issue.key);
    expect(page.total).toBe(3);
    expect(page.values.map((c) => c.author.accountId)).toEqual([
      AGENT_ACCOUNT_ID,
      AGENT_ACCOUNT_ID,
      AGENT_ACCOUNT_ID,
    ]);
    expect(page.values[0]!.items).toEqual([
      {
        field: "status",
        fieldtype: "jira",
        fieldId: "status",
        from: "10000",
        fromString: "To Do",
        to: "3",
        toString: "In Progress",
      },
    ]);
    expect(page.values[1]!.items).toEqual([
      {
        field: "assignee",
        fieldtype: "jira",
        fieldId: "assignee",
        from: null,
        fromString: null,
        to: person.accountId,
        toString: person.displayName,
      },
    ]);
    expect(page.values[2]!.items).toEqual([
      {
        field: "summary",
        fieldtype: "jira",
        fieldId: "summary",
        from: null,
        fromString: issue.summary,
        to: null,
        toString: "Renamed",
      },
      {
        field: "labels",
        fieldtype: "jira",
        fieldId: "labels",
        from: null,
        fromString: issue.labels.join(" "),
        to: null,
        toString: "alpha beta",
      },
    ]);
    expect(page.values.map((c) => Date.parse(c.created))).toEqual(
      [...page.values.map((c) => Date.parse(c.created))].sort((a, b) => a - b),
    );

    const bean = call(site, "getIssue", {
      issueIdOrKey: issue.key,
      expand: ["changelog"],
      fields: ["summary"],
    }).body as { changelog: { histories: Change[]; total: number; startAt: number } };
    expect(bean.changelog).toMatchObject({ startAt: 0, total: 3 });
    // The expansion lists the most recent first, as the published document says; the changelog pages oldest first.
    expect(bean.changelog.histories).toEqual([...page.values].reverse());
    const found = call(site, "searchAndReconsileIssuesUsingJql", {
      jql: `key = ${issue.key}`,
      fields: ["summary"],
      expand: "changelog",
    }).body as { issues: { changelog: { histories: Change[] } }[] };
    expect(found.issues[0]!.changelog.histories).toEqual([...page.values].reverse());
  });

  it("pages by startAt and maxResults, with nextPage until the last", () => {
    const site = createSite({ seed: 1 });
    const issue = unassignedToDo(site);
    for (const id of ["21", "11", "21", "11", "21"])
      expect(call(site, "doTransition", { issueIdOrKey: issue.key }, { transition: { id } }).status).toBe(
        204,
      );
    const first = changelog(site, issue.key, { maxResults: 2 });
    expect(first).toMatchObject({ startAt: 0, maxResults: 2, total: 5, isLast: false });
    expect(first.nextPage).toMatch(/\/rest\/api\/3\/issue\/[A-Z]+-\d+\/changelog\?maxResults=2&startAt=2$/);
    const last = changelog(site, issue.key, { startAt: 4, maxResults: 2 });
    expect(last).toMatchObject({ startAt: 4, total: 5, isLast: true });
    expect(last.values).toHaveLength(1);
    expect(last.nextPage).toBeUndefined();
    expect(changelog(site, issue.key, { maxResults: 0 })).toMatchObject({
      values: [],
      total: 5,
      isLast: false,
    });
    expect(changelog(site, issue.key, { maxResults: 500 }).maxResults).toBe(100);
    expect(call(site, "getChangeLogs", { issueIdOrKey: "ENG-99999" }).status).toBe(404);
    expect(call(site, "getChangeLogs", { issueIdOrKey: issue.key, startAt: -1 }).status).toBe(400);
  });

  it("expands the most recent 100 entries of a longer history, newest first", () => {
    const site = createSite({ seed: 1 });
    const issue = unassignedToDo(site);
    for (let i = 1; i <= 105; i++)
      expect(
        call(site, "editIssue", { issueIdOrKey: issue.key }, { fields: { summary: `Edit ${i}` } }).status,
      ).toBe(204);
    const { changelog: expanded } = call(site, "getIssue", {
      issueIdOrKey: issue.key,
      expand: ["changelog"],
      fields: ["summary"],
    }).body as { changelog: { histories: Change[]; total: number; maxResults: number } };
    expect(expanded).toMatchObject({ total: 105, maxResults: 100 });
    const summaries = expanded.histories.map((h) => h.items[0]!.toString);
    expect([summaries[0], summaries[99]]).toEqual(["Edit 105", "Edit 6"]);
  });

  it("notes a new link on both issues, as each reads it", () => {
    const site = createSite({ seed: 1 });
    const body = { type: { name: "Blocks" }, inwardIssue: { key: "ENG-1" }, outwardIssue: { key: "ENG-2" } };
    expect(call(site, "linkIssues", {}, body).status).toBe(201);
    expect(changelog(site, "ENG-1").values[0]!.items).toEqual([
      {
        field: "Link",
        fieldtype: "jira",
        fieldId: "issuelinks",
        from: null,
        fromString: null,
        to: "ENG-2",
        toString: "This issue blocks ENG-2",
      },
    ]);
    expect(changelog(site, "ENG-2").values[0]!.items).toEqual([
      {
        field: "Link",
        fieldtype: "jira",
        fieldId: "issuelinks",
        from: null,
        fromString: null,
        to: "ENG-1",
        toString: "This issue is blocked by ENG-1",
      },
    ]);
  });

  it("records a new reporter, and a description whose formatting alone changed, as wiki markup", () => {
    const site = createSite({ seed: 1 });
    const issue = unassignedToDo(site);
    const other = [...site.values("users")].find((u) => u.accountId !== issue.reporterId)!;
    const plainDoc = paragraphDoc("hello");
    const boldDoc = {
      type: "doc",
      version: 1,
      content: [
        { type: "paragraph", content: [{ type: "text", text: "hello", marks: [{ type: "strong" }] }] },
      ],
    };
    const edit = (fields: Record<string, unknown>) =>
      expect(call(site, "editIssue", { issueIdOrKey: issue.key }, { fields }).status).toBe(204);
    edit({ reporter: { accountId: other.accountId } });
    edit({ description: plainDoc });
    edit({ description: boldDoc });
    const items = changelog(site, issue.key).values.map((c) => c.items[0]!);
    expect(items[0]).toMatchObject({ field: "reporter", to: other.accountId, toString: other.displayName });
    expect(items.at(-1)).toMatchObject({ field: "description", fromString: "hello", toString: "*hello*" });
  });

  it("is left out of diffs (rewards see the same changes), and a refused write records nothing", () => {
    const site = createSite({ seed: 1 });
    const issue = unassignedToDo(site);
    const before = site.fork();
    expect(call(site, "doTransition", { issueIdOrKey: issue.key }, { transition: { id: "21" } }).status).toBe(
      204,
    );
    expect(site.size("issueHistory")).toBe(1);
    expect(diff(before, site).map((c) => `${c.kind} ${c.table} ${c.id}`)).toEqual([
      `updated issues ${issue.id}`,
    ]);
    const hash = site.hash();
    expect(
      call(site, "doTransition", { issueIdOrKey: issue.key }, { transition: { id: "999" } }).status,
    ).toBe(400);
    expect(call(site, "editIssue", { issueIdOrKey: issue.key }, { fields: { summary: "" } }).status).toBe(
      400,
    );
    expect(site.hash()).toBe(hash);
    expect(findIssue(site, issue.key)!.statusId).toBe("3");
  });
});
