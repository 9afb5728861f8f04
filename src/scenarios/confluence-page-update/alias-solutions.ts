/**
 * confluence-page-update through the alias tool sets (src/scenarios/alias-solution.ts): only Rovo covers
 * it (at level 3 it follows the issue's remote link; mcp-atlassian reads no remote links). Like the
 * reference it declines a level-3 task that cannot be done, after looking.
 */
import { storageToAdf } from "../../sandbox/adf/storage-to-adf.ts";
import type { AdfNode } from "../../sandbox/adf/types.ts";
import { escapeXml } from "../../sandbox/fixtures/text.ts";
import {
  type AliasSolutions,
  CLOUD_ID as cloudId,
  declined,
  findRovoSpace,
  type Results,
  type Users,
} from "../alias-solution.ts";
import { call } from "../define-scenario.ts";
import type { PageUpdateExpected } from "./scenario.ts";

export const aliasSolutions: AliasSolutions<PageUpdateExpected> = {
  *rovo({ expected: e }) {
    let pageId: string | undefined;
    if (e.via === "issue") {
      const users = yield call("lookupJiraAccountId", { cloudId, searchString: e.assignee });
      const accountId = (users.body as Users).find((u) => u.displayName === e.assignee)!.accountId;
      const jql = `project = "${e.projectName}" AND assignee = "${accountId}" AND status = "${e.statusName}"`;
      const found = yield call("searchJiraIssuesUsingJql", { cloudId, jql });
      const key = (found.body as { issues: { key: string }[] }).issues[0]!.key;
      const links = yield call("getJiraIssueRemoteIssueLinks", { cloudId, issueIdOrKey: key });
      const urls = (links.body as { object: { url: string } }[]).map((l) => l.object.url);
      pageId = urls.map((u) => /\/pages\/(\d+)/.exec(u)?.[1]).find(Boolean);
      if (!pageId) return declined("Confluence page linked from that issue");
    } else {
      const space = yield* findRovoSpace(e, e.via === "key");
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
};
