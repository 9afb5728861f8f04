/**
 * Alias solutions (Rovo, mcp-atlassian) of the families beyond the paper's five that a set covers:
 * confluence-page-update (Rovo: follows the issue's remote link at level 3), confluence-page-tree
 * (mcp-atlassian: finds a labelled page with CQL) and cross-product-status-report (both). Like the
 * references, they decline a level-3 task that cannot be done, after looking.
 */
import { storageToAdf } from "../src/sandbox/adf/storage-to-adf.ts";
import type { AdfNode } from "../src/sandbox/adf/types.ts";
import { escapeXml } from "../src/sandbox/fixtures/text.ts";
import type { Task } from "../src/scenarios/define-scenario.ts";
import type { ToolCallRequest } from "../src/tools/execute-tool.ts";
import type { Answer } from "./mcp-alias-solutions.ts";

type Solve = (task: Task) => Generator<ToolCallRequest, string, Answer>;
// biome-ignore lint/suspicious/noExplicitAny: each solution reads its own scenario's expected values.
type E = any;
type Results<T> = { results: T[] };
type Space = { id: string; key: string; name: string };
type Found = {
  key: string;
  fields: { summary: string; status: { name: string }; assignee: { displayName: string } | null };
};

const call = (name: string, args: Record<string, unknown>): ToolCallRequest => ({ name, arguments: args });
const cloudId = "https://atlas-gym.atlassian.net";
const HEADER = ["Key", "Summary", "Status", "Assignee"];
const DECLINED = "I did not change anything: the task cannot be done as asked.";

/** The report's storage table of a JQL search's issues. */
function reportTable(found: Answer): string {
  const rows = (found.body as { issues: Found[] }).issues.map((i) => [
    i.key,
    i.fields.summary,
    i.fields.status.name,
    i.fields.assignee?.displayName ?? "Unassigned",
  ]);
  const tr = (cells: string[], tag: string) =>
    `<tr>${cells.map((c) => `<${tag}>${escapeXml(c)}</${tag}>`).join("")}</tr>`;
  return `<table><tbody>${tr(HEADER, "th")}${rows.map((r) => tr(r, "td")).join("")}</tbody></table>`;
}

/** The JQL of a report task, once its person (level 2) or page owner (level 3) is known. */
const reportJql = (e: E, accountId?: string) =>
  e.via === "key"
    ? e.jql
    : e.via === "name"
      ? `project = ${e.projectKey} AND assignee = "${accountId}" AND statusCategory != Done ORDER BY key ASC`
      : `assignee = "${accountId}" AND statusCategory != Done ORDER BY key ASC`;

export const ROVO_FAMILIES: Record<string, Solve> = {
  *"confluence-page-update-v1"({ expected: e }: Task<E>) {
    let pageId: string | undefined;
    if (e.via === "issue") {
      const users = yield call("lookupJiraAccountId", { cloudId, searchString: e.assignee });
      const accountId = (users.body as { accountId: string; displayName: string }[]).find(
        (u) => u.displayName === e.assignee,
      )!.accountId;
      const jql = `project = "${e.projectName}" AND assignee = "${accountId}" AND status = "${e.statusName}"`;
      const found = yield call("searchJiraIssuesUsingJql", { cloudId, jql });
      const key = (found.body as { issues: { key: string }[] }).issues[0]!.key;
      const links = yield call("getJiraIssueRemoteIssueLinks", { cloudId, issueIdOrKey: key });
      const urls = (links.body as { object: { url: string } }[]).map((l) => l.object.url);
      pageId = urls.map((u) => /\/pages\/(\d+)/.exec(u)?.[1]).find(Boolean);
      if (!pageId) return DECLINED;
    } else {
      const spaces = yield call(
        "getConfluenceSpaces",
        e.via === "key" ? { cloudId, keys: [e.spaceKey] } : { cloudId },
      );
      const space = (spaces.body as Results<Space>).results.find((s) =>
        e.via === "key" ? s.key === e.spaceKey : s.name === e.spaceName,
      )!;
      const pages = yield call("getPagesInConfluenceSpace", { cloudId, spaceId: space.id, title: e.title });
      pageId = (pages.body as Results<{ id: string }>).results[0]!.id;
    }
    const read = yield call("getConfluencePage", { cloudId, pageId, contentFormat: "adf" });
    const value = (read.body as { body: { atlas_doc_format: { value: string } } }).body.atlas_doc_format
      .value;
    const doc = JSON.parse(value) as { content: AdfNode[] };
    const section = storageToAdf(`<h2>${escapeXml(e.heading)}</h2><p>${escapeXml(e.paragraph)}</p>`);
    const body = { ...doc, content: [...doc.content, ...(section.content ?? [])] };
    yield call("updateConfluencePage", { cloudId, pageId, body, contentFormat: "adf" });
    yield call("getConfluencePage", { cloudId, pageId });
    return `Appended "${e.heading}".`;
  },
  *"cross-product-status-report-v1"({ expected: e }: Task<E>) {
    const spaces = yield call(
      "getConfluenceSpaces",
      e.via === "key" ? { cloudId, keys: [e.spaceKey] } : { cloudId },
    );
    const space = (spaces.body as Results<Space>).results.find((s) =>
      e.via === "key" ? s.key === e.spaceKey : s.name === e.spaceName,
    )!;
    const pages = yield call("getPagesInConfluenceSpace", {
      cloudId,
      spaceId: space.id,
      title: e.parentTitle,
    });
    const parent = (pages.body as Results<{ id: string; ownerId: string }>).results[0];
    if (!parent) return DECLINED;
    let accountId: string | undefined = parent.ownerId;
    if (e.via === "name") {
      const users = yield call("lookupJiraAccountId", { cloudId, searchString: e.assignee });
      accountId = (users.body as { accountId: string; displayName: string }[]).find(
        (u) => u.displayName === e.assignee,
      )!.accountId;
    }
    const found = yield call("searchJiraIssuesUsingJql", {
      cloudId,
      jql: reportJql(e, accountId),
      fields: ["summary", "status", "assignee"],
      maxResults: 100,
    });
    const created = yield call("createConfluencePage", {
      cloudId,
      spaceId: space.id,
      parentId: parent.id,
      title: e.title,
      body: storageToAdf(reportTable(found)),
      contentFormat: "adf",
    });
    yield call("getConfluencePage", { cloudId, pageId: (created.body as { id: string }).id });
    return `Created "${e.title}".`;
  },
};

/** A space's key from mcp-atlassian's CQL search (it has no tool that lists spaces). */
function* spaceKeyByName(name: string) {
  const found: Answer = yield call("confluence_search", {
    query: `type = space AND space.title = "${name}"`,
  });
  const results = (found.body as Results<{ space?: { key: string; name: string } }>).results;
  return results.find((r) => r.space?.name === name)!.space!.key;
}

export const MCP_ATLASSIAN_FAMILIES: Record<string, Solve> = {
  *"confluence-page-tree-v1"({ expected: e }: Task<E>) {
    const spaceKey = e.via === "key" ? e.spaceKey : yield* spaceKeyByName(e.spaceName);
    let anchorId: string;
    if (e.via === "label") {
      const cql = `type = page AND space = "${spaceKey}" AND label = "${e.anchorLabel}"`;
      const found = yield call("confluence_search", { query: cql });
      const hit = (found.body as Results<{ content?: { id: string } }>).results[0];
      if (!hit?.content) return DECLINED;
      anchorId = hit.content.id;
    } else {
      const anchor = yield call("confluence_get_page", { title: e.anchorTitle, space_key: spaceKey });
      anchorId = (anchor.body as { id: string }).id;
    }
    const parent = yield call("confluence_create_page", {
      space_key: spaceKey,
      title: e.title,
      content: e.text,
      parent_id: anchorId,
    });
    const parentId = (parent.body as { id: string }).id;
    for (const title of e.children as string[])
      yield call("confluence_create_page", { space_key: spaceKey, title, content: "", parent_id: parentId });
    yield call("confluence_get_page_children", { parent_id: parentId });
    return `Created "${e.title}" and its children.`;
  },
  *"cross-product-status-report-v1"({ expected: e }: Task<E>) {
    const spaceKey = e.via === "key" ? e.spaceKey : yield* spaceKeyByName(e.spaceName);
    const cql = `type = page AND space = "${spaceKey}" AND title = "${e.parentTitle}"`;
    const found0 = yield call("confluence_search", { query: cql });
    const hit = (found0.body as Results<{ content?: { id: string } }>).results[0];
    if (!hit?.content) return DECLINED;
    const parent = yield call("confluence_get_page", { page_id: hit.content.id });
    const page = parent.body as { id: string; ownerId: string };
    let accountId: string | undefined = page.ownerId;
    if (e.via === "name") {
      const users = yield call("jira_get_user_profile", { user_identifier: e.assignee });
      accountId = (users.body as { accountId: string; displayName: string }[]).find(
        (u) => u.displayName === e.assignee,
      )!.accountId;
    }
    const found = yield call("jira_search", {
      jql: reportJql(e, accountId),
      fields: "summary,status,assignee",
      limit: 50,
    });
    const created = yield call("confluence_create_page", {
      space_key: spaceKey,
      title: e.title,
      content: reportTable(found),
      content_format: "storage",
      parent_id: page.id,
    });
    yield call("confluence_get_page", { page_id: (created.body as { id: string }).id });
    return `Created "${e.title}".`;
  },
};
