/**
 * cross-product-page-link through the alias tool sets (src/scenarios/alias-solution.ts): only
 * mcp-atlassian covers it (Rovo has no remote-link write).
 */
import { type AliasSolutions, findIssueKey, findSpaceKey } from "../alias-solution.ts";
import { call } from "../define-scenario.ts";
import type { PageLinkExpected } from "./scenario.ts";

export const aliasSolutions: AliasSolutions<PageLinkExpected> = {
  *"mcp-atlassian"({ expected: e }) {
    const key = yield* findIssueKey("jira_search", e, true);
    const issue = yield call("jira_get_issue", { issue_key: key, fields: "summary" });
    const summary = (issue.body as { fields: { summary: string } }).fields.summary;
    const spaceKey = yield* findSpaceKey(e, !e.byKey);
    const parent = yield call("confluence_get_page", { title: e.parentTitle, space_key: spaceKey });
    const title = `${key}: ${summary}`;
    const created = yield call("confluence_create_page", {
      space_key: spaceKey,
      title,
      content: `This page documents the Jira issue **${key}**: ${summary}.`,
      parent_id: (parent.body as { id: string }).id,
    });
    const page = created.body as { id: string; _links: { base: string; webui: string } };
    yield call("jira_create_remote_issue_link", {
      issue_key: key,
      url: `${page._links.base}${page._links.webui}`,
      title,
    });
    yield call("confluence_get_page", { page_id: page.id });
    return `Linked ${key}.`;
  },
};
