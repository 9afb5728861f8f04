/**
 * cross-product-status-report through the alias tool sets (src/scenarios/alias-solution.ts): both cover
 * it. Like the reference they decline a level-3 task that cannot be done, after looking.
 */
import { storageToAdf } from "../../sandbox/adf/storage-to-adf.ts";
import {
  type AliasSolutions,
  CLOUD_ID as cloudId,
  declined,
  findRovoSpace,
  findSpaceKey,
  type Results,
  type Users,
} from "../alias-solution.ts";
import { call } from "../define-scenario.ts";
import { reportTable } from "./report-table.ts";
import type { StatusReportExpected } from "./scenario.ts";

/** The JQL of a report task, once its person (level 2) or page owner (level 3) is known. */
const reportJql = (e: StatusReportExpected, accountId?: string) =>
  e.via === "key"
    ? e.jql
    : e.via === "name"
      ? `project = ${e.projectKey} AND assignee = "${accountId}" AND statusCategory != Done ORDER BY key ASC`
      : `assignee = "${accountId}" AND statusCategory != Done ORDER BY key ASC`;

export const aliasSolutions: AliasSolutions<StatusReportExpected> = {
  *rovo({ expected: e }) {
    const space = yield* findRovoSpace(e, e.via === "key");
    const pages = yield call("getPagesInConfluenceSpace", {
      cloudId,
      spaceId: space.id,
      title: e.parentTitle,
    });
    const parent = (pages.body as Results<{ id: string; ownerId: string }>).results[0];
    if (!parent) return declined(`page "${e.parentTitle}" in that space`);
    let accountId: string | undefined = parent.ownerId;
    if (e.via === "name") {
      const users = yield call("lookupJiraAccountId", { cloudId, searchString: e.assignee });
      accountId = (users.body as Users).find((u) => u.displayName === e.assignee)!.accountId;
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
      body: storageToAdf(reportTable(found.body)),
      contentFormat: "adf",
    });
    yield call("getConfluencePage", { cloudId, pageId: (created.body as { id: string }).id });
    return `Created "${e.title}".`;
  },
  *"mcp-atlassian"({ expected: e }) {
    const spaceKey = yield* findSpaceKey(e, e.via !== "key");
    const cql = `type = page AND space = "${spaceKey}" AND title = "${e.parentTitle}"`;
    const found0 = yield call("confluence_search", { query: cql });
    const hit = (found0.body as Results<{ content?: { id: string } }>).results[0];
    if (!hit?.content) return declined(`page "${e.parentTitle}" in that space`);
    const parent = yield call("confluence_get_page", { page_id: hit.content.id });
    const page = parent.body as { id: string; ownerId: string };
    let accountId: string | undefined = page.ownerId;
    if (e.via === "name") {
      const users = yield call("jira_get_user_profile", { user_identifier: e.assignee });
      accountId = (users.body as Users).find((u) => u.displayName === e.assignee)!.accountId;
    }
    const found = yield call("jira_search", {
      jql: reportJql(e, accountId),
      fields: "summary,status,assignee",
      limit: 50,
    });
    const created = yield call("confluence_create_page", {
      space_key: spaceKey,
      title: e.title,
      content: reportTable(found.body),
      content_format: "storage",
      parent_id: page.id,
    });
    yield call("confluence_get_page", { page_id: (created.body as { id: string }).id });
    return `Created "${e.title}".`;
  },
};
