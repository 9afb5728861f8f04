/**
 * The real clients, pinned exactly — jira.js 6.2.0 (createCloudClient, onSchemaMismatch 'throw') and
 * confluence.js 3.2.0 (createV2Client, createV1Client for labels) — perform the five paper workflows,
 * JQL search with pagination, and the error cases against a running server. Every answer the server
 * gives is also validated against Atlassian's OpenAPI documents.
 */
import {
  createV1Client,
  createV2Client,
  isApiError as isConfluenceApiError,
  isNotFoundError as isConfluenceNotFound,
} from "confluence.js";
import { createCloudClient, isApiError, isNotFoundError } from "jira.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceServer } from "./support/conformance-server.ts";

let server: Awaited<ReturnType<typeof startConformanceServer>>;
const auth = { type: "basic" as const, email: "agent@example.com", apiToken: "token" };
const doc = (text: string) => ({
  type: "doc" as const,
  version: 1,
  content: [{ type: "paragraph", content: [{ type: "text", text }] }],
});

beforeAll(async () => {
  server = await startConformanceServer(11);
});
afterAll(async () => {
  await server.close();
});

/** Clients for an isolated site, so each test starts from the pristine fixture. */
function clients(siteId: string) {
  const host = `${server.url}/s/${siteId}`;
  return {
    jira: createCloudClient({ host, auth, onSchemaMismatch: "throw" }),
    wiki: createV2Client({ host, auth }),
    wikiV1: createV1Client({ host, auth }),
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

describe("jira.js 6.2.0", () => {
  it("transitions an issue through the workflow, and to Done with a resolution", async () => {
    const { jira } = clients("transition");
    const issue = await jira.issues.getIssue({ issueIdOrKey: "ENG-1", fields: ["status"] });
    const { transitions } = await jira.issues.getTransitions({ issueIdOrKey: issue.key! });
    const notDone = transitions!.find((t) => t.to?.name !== "Done")!;
    await jira.issues.doTransition({ issueIdOrKey: "ENG-1", transition: { id: notDone.id } });
    const moved = await jira.issues.getIssue({ issueIdOrKey: "ENG-1", fields: ["status"] });
    expect((moved.fields!.status as { name: string }).name).toBe(notDone.to!.name);
    const done = (
      await jira.issues.getTransitions({ issueIdOrKey: "ENG-1", expand: "transitions.fields" })
    ).transitions!.find((t) => t.to?.name === "Done")!;
    await jira.issues.doTransition({
      issueIdOrKey: "ENG-1",
      transition: { id: done.id },
      fields: { resolution: { name: "Won't Do" } },
    });
    const closed = await jira.issues.getIssue({ issueIdOrKey: "ENG-1", fields: ["status", "resolution"] });
    expect((closed.fields!.status as { name: string }).name).toBe("Done");
    expect((closed.fields!.resolution as { name: string }).name).toBe("Won't Do");
    // Reopening clears the resolution: its change item reads `to`/`toString` null, which jira.js accepts.
    await jira.issues.doTransition({ issueIdOrKey: "ENG-1", transition: { id: "51" } });
    const { values } = await jira.issues.getChangeLogs({ issueIdOrKey: "ENG-1" });
    const cleared = values!.at(-1)!.items!.find((item) => item.field === "resolution")!;
    expect(cleared).toMatchObject({ fromString: "Won't Do", to: null, toString: null });
  });

  it("creates a sub-task under a parent with an assignee and a priority", async () => {
    const { jira } = clients("subtask");
    const types = await jira.issues.getCreateIssueMetaIssueTypes({ projectIdOrKey: "OPS" });
    const subtaskType = types.issueTypes!.find((t) => t.subtask)!;
    const [user] = await jira.userSearch.findUsers({ query: "Priya" });
    const created = await jira.issues.createIssue({
      fields: {
        project: { key: "OPS" },
        parent: { key: "OPS-2" },
        issuetype: { id: subtaskType.id },
        summary: "Check the restore logs",
        assignee: { accountId: user!.accountId },
        priority: { name: "High" },
        description: doc("Created by jira.js"),
      },
    });
    const subtask = await jira.issues.getIssue({ issueIdOrKey: created.key! });
    expect((subtask.fields!.parent as { key: string }).key).toBe("OPS-2");
    expect((subtask.fields!.assignee as { accountId: string }).accountId).toBe(user!.accountId);
    expect((subtask.fields!.priority as { name: string }).name).toBe("High");
    const parent = await jira.issues.getIssue({ issueIdOrKey: "OPS-2", fields: ["subtasks"] });
    expect((parent.fields!.subtasks as { key: string }[]).map((s) => s.key)).toContain(created.key);
  });

  it("searches with JQL across pages without gaps or repeats", async () => {
    const { jira } = clients("search");
    const keys: string[] = [];
    let nextPageToken: string | undefined;
    do {
      const page = await jira.issueSearch.searchAndReconsileIssuesUsingJqlPost({
        jql: "project = ENG ORDER BY key ASC",
        fields: ["summary"],
        maxResults: 4,
        nextPageToken,
      });
      keys.push(...page.issues!.map((i) => i.key!));
      nextPageToken = page.nextPageToken ?? undefined;
      if (!nextPageToken) expect(page.isLast).toBe(true);
    } while (nextPageToken);
    const all = await jira.issueSearch.searchAndReconsileIssuesUsingJql({
      jql: "project = ENG ORDER BY key ASC",
      fields: ["summary"],
      maxResults: 100,
    });
    expect(keys).toEqual(all.issues!.map((i) => i.key));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBeGreaterThan(8);
  });

  it("lists link types and links two issues in the stated direction", async () => {
    const { jira } = clients("links");
    const { issueLinkTypes } = await jira.issueLinkTypes.getIssueLinkTypes();
    const blocks = issueLinkTypes!.find((t) => t.name === "Blocks")!;
    expect(blocks).toMatchObject({ inward: "is blocked by", outward: "blocks" });
    await jira.issueLinks.linkIssues({
      type: { name: "Blocks" },
      inwardIssue: { key: "ENG-5" },
      outwardIssue: { key: "ENG-6" },
    });
    const issue = await jira.issues.getIssue({ issueIdOrKey: "ENG-5", fields: ["issuelinks"] });
    const links = issue.fields!.issuelinks as { type: { name: string }; outwardIssue?: { key: string } }[];
    expect(links.some((l) => l.type.name === "Blocks" && l.outwardIssue?.key === "ENG-6")).toBe(true);
    const error = await rejection(
      jira.issueLinks.linkIssues({
        type: { name: "Causes" },
        inwardIssue: { key: "ENG-5" },
        outwardIssue: { key: "ENG-6" },
      }),
    );
    expect(isNotFoundError(error)).toBe(true);
  });

  it("adds a comment that mentions a user and reads it back", async () => {
    const { jira } = clients("mentions");
    const [user] = await jira.userSearch.findUsers({ query: "Priya" });
    const body = {
      type: "doc" as const,
      version: 1,
      content: [
        {
          type: "paragraph",
          content: [
            { type: "mention", attrs: { id: user!.accountId!, text: `@${user!.displayName}` } },
            { type: "text", text: " please review." },
          ],
        },
      ],
    };
    const added = await jira.issueComments.addComment({ issueIdOrKey: "ENG-2", body });
    expect(added.body).toEqual(body);
    const { comments } = await jira.issueComments.getComments({ issueIdOrKey: "ENG-2" });
    expect(comments!.at(-1)!.id).toBe(added.id);
  });

  it("counts a JQL query's issues and edits a comment, the caller becoming its updateAuthor", async () => {
    const { jira } = clients("comment-edit");
    const { count } = await jira.issueSearch.countIssues({ jql: "project = ENG" });
    let paged = 0;
    for (let token: string | undefined, first = true; first || token; first = false) {
      const page = await jira.issueSearch.searchAndReconsileIssuesUsingJql({
        jql: "project = ENG",
        nextPageToken: token,
        maxResults: 5,
      });
      paged += page.issues!.length;
      token = page.nextPageToken ?? undefined;
    }
    expect(count).toBe(paged);
    const added = await jira.issueComments.addComment({ issueIdOrKey: "ENG-2", body: doc("First take.") });
    const edited = await jira.issueComments.updateComment({
      issueIdOrKey: "ENG-2",
      id: added.id!,
      body: { body: doc("Second take.") },
    });
    expect(edited.body).toEqual(doc("Second take."));
    const read = await jira.issueComments.getComment({ issueIdOrKey: "ENG-2", id: added.id! });
    expect(read.body).toEqual(doc("Second take."));
  });

  it("reports an unknown issue as a 404 with Jira's body", async () => {
    const { jira } = clients("errors");
    const error = await rejection(jira.issues.getIssue({ issueIdOrKey: "ENG-4040" }));
    expect(isNotFoundError(error)).toBe(true);
    expect((error as { body: unknown }).body).toEqual({
      errorMessages: ["Issue does not exist or you do not have permission to see it."],
      errors: {},
    });
  });

  it("rejects a sub-task without a parent with a 400", async () => {
    const { jira } = clients("errors");
    const types = await jira.issues.getCreateIssueMetaIssueTypes({ projectIdOrKey: "ENG" });
    const subtaskType = types.issueTypes!.find((t) => t.subtask)!;
    const error = await rejection(
      jira.issues.createIssue({
        fields: { project: { key: "ENG" }, issuetype: { id: subtaskType.id }, summary: "Orphan" },
      }),
    );
    expect(isApiError(error) && error.status).toBe(400);
    expect(JSON.stringify((error as { body: unknown }).body)).toMatch(/parent/i);
  });
});

describe("confluence.js 3.2.0", () => {
  async function spaceAndParent(wiki: ReturnType<typeof clients>["wiki"], key: string, title: string) {
    const spaces = await wiki.space.getSpaces({ keys: [key] });
    const space = spaces.results![0]!;
    const pages = await wiki.page.getPages({ spaceId: [Number(space.id)], title });
    return { space, parent: pages.results![0]! };
  }

  it("creates a page under a parent page and reads it back", async () => {
    const { wiki } = clients("page");
    const { space, parent } = await spaceAndParent(wiki, "ENG", "Runbooks");
    const page = await wiki.page.createPage({
      body: {
        spaceId: space.id,
        parentId: parent.id,
        status: "current",
        title: "Cache Warmup Runbook",
        body: { representation: "storage", value: "<p>Warm the caches first.</p>" },
      },
    });
    expect(page.parentId).toBe(parent.id);
    const read = await wiki.page.getPageById({ id: Number(page.id), bodyFormat: "storage" });
    expect(read.body?.storage?.value).toContain("Warm the caches first.");
    const children = await wiki.children.getChildPages({ id: Number(parent.id) });
    expect(children.results!.map((c) => c.title)).toContain("Cache Warmup Runbook");
  });

  it("lists a page's ancestors, highest first, ending at its parent", async () => {
    const { wiki } = clients("ancestors");
    const { parent } = await spaceAndParent(wiki, "ENG", "Runbooks");
    const children = await wiki.children.getChildPages({ id: Number(parent.id) });
    const child = children.results![0]!;
    const { results } = await wiki.ancestors.getPageAncestors({ id: Number(child.id) });
    expect(results!.at(-1)).toEqual({ id: parent.id, type: "page" });
    const ofParent = await wiki.ancestors.getPageAncestors({ id: Number(parent.id) });
    expect(results!.slice(0, -1)).toEqual(ofParent.results);
  });

  it("adds labels to a page with v1 and reads them back with v2", async () => {
    const { wiki, wikiV1 } = clients("labels");
    const { parent: page } = await spaceAndParent(wiki, "OPS", "On-call");
    await wikiV1.contentLabels.addLabelsToContent({
      id: page.id!,
      body: [
        { prefix: "global", name: "escalation" },
        { prefix: "global", name: "Pager" },
      ],
    });
    const labels = await wiki.label.getPageLabels({ id: Number(page.id) });
    expect(labels.results!.map((l) => l.name)).toEqual(expect.arrayContaining(["escalation", "pager"]));
  });

  it("finds a label's pages with CQL (v1) and removes the label from one of them", async () => {
    const { wiki, wikiV1 } = clients("label-cleanup");
    const found = await wikiV1.search.searchByCQL({ cql: 'type=page AND label="runbook"', limit: 100 });
    const ids = found.results!.map((r) => r.content!.id!);
    expect(ids.length).toBeGreaterThan(1);
    await wikiV1.contentLabels.removeLabelFromContentUsingQueryParameter({ id: ids[0]!, name: "runbook" });
    const labels = await wiki.label.getPageLabels({ id: Number(ids[0]) });
    expect(labels.results!.map((l) => l.name)).not.toContain("runbook");
    const after = await wikiV1.search.searchByCQL({ cql: 'type=page AND label="runbook"', limit: 100 });
    expect(after.results!.map((r) => r.content!.id)).toEqual(ids.slice(1));
    const missing = await rejection(
      wikiV1.contentLabels.removeLabelFromContentUsingQueryParameter({ id: ids[0]!, name: "runbook" }),
    );
    expect(isConfluenceApiError(missing) && missing.status).toBe(404);
  });

  it("rejects a duplicate title and a stale version", async () => {
    const { wiki } = clients("page-errors");
    const { space, parent } = await spaceAndParent(wiki, "PROD", "Roadmap");
    const duplicate = await rejection(
      wiki.page.createPage({
        body: {
          spaceId: space.id,
          status: "current",
          title: "Roadmap 2026",
          body: { representation: "storage", value: "<p>x</p>" },
        },
      }),
    );
    expect(isConfluenceApiError(duplicate) && duplicate.status).toBe(400);
    expect(JSON.stringify((duplicate as { body: unknown }).body)).toMatch(
      /A page with this title already exists/,
    );
    const stale = await rejection(
      wiki.page.updatePage({
        id: Number(parent.id),
        body: {
          id: parent.id,
          status: "current",
          title: parent.title,
          body: { representation: "storage", value: "<p>new</p>" },
          version: { number: 1 },
        },
      }),
    );
    expect(isConfluenceApiError(stale) && stale.status).toBe(409);
    const missing = await rejection(wiki.page.getPageById({ id: 999 }));
    expect(isConfluenceNotFound(missing)).toBe(true);
  });
});

describe("cross-product: a page about an issue, linked from the issue", () => {
  it("creates the page with confluence.js and the remote link with jira.js", async () => {
    const { jira, wiki } = clients("cross");
    const issue = await jira.issues.getIssue({ issueIdOrKey: "MOB-3", fields: ["summary"] });
    const spaces = await wiki.space.getSpaces({ keys: ["PROD"] });
    const space = spaces.results![0]!;
    const title = `${issue.key}: ${issue.fields!.summary as string}`;
    const page = await wiki.page.createPage({
      body: {
        spaceId: space.id,
        status: "current",
        title,
        body: { representation: "storage", value: `<p>${issue.key}</p>` },
      },
    });
    const url = `${page._links!.base}${page._links!.webui}`;
    const link = await jira.issueRemoteLinks.createOrUpdateRemoteIssueLink({
      issueIdOrKey: issue.key!,
      object: { url, title },
    });
    expect(typeof link.id).toBe("number");
    const links = await jira.issueRemoteLinks.getRemoteIssueLinks({ issueIdOrKey: issue.key! });
    expect(JSON.stringify(links)).toContain(url);
    const web = await fetch(url.replace(/\/wiki\/spaces\/.*$/, `/wiki/api/v2/pages/${page.id}`));
    expect(web.status).toBe(200);
  });
});

describe("the contract", () => {
  it("every answer the server gave in this suite conforms to the spec", () => {
    expect(server.seen.size).toBeGreaterThan(10);
    expect(server.violations).toEqual([]);
  });
});
