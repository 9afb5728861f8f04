/** jira-subtask-create through the alias tool sets (src/scenarios/alias-solution.ts): both cover it. */
import { type AliasSolutions, CLOUD_ID as cloudId, findIssueKey } from "../alias-solution.ts";
import { call } from "../define-scenario.ts";
import type { SubtaskExpected } from "./scenario.ts";

type Parent = { fields: { project: { key: string } } };
type IssueTypes = { issueTypes: { name: string; subtask: boolean }[] };
type Users = { accountId: string; displayName: string }[];

export const aliasSolutions: AliasSolutions<SubtaskExpected> = {
  *rovo({ expected: e }) {
    const parentKey = yield* findIssueKey("searchJiraIssuesUsingJql", e, false);
    const parent = yield call("getJiraIssue", { cloudId, issueIdOrKey: parentKey, fields: ["project"] });
    const projectKey = (parent.body as Parent).fields.project.key;
    const types = yield call("getJiraProjectIssueTypesMetadata", { cloudId, projectIdOrKey: projectKey });
    const typeName = (types.body as IssueTypes).issueTypes.find((t) => t.subtask)!.name;
    const users = yield call("lookupJiraAccountId", { cloudId, searchString: e.assigneeName });
    const accountId = (users.body as Users).find((u) => u.displayName === e.assigneeName)!.accountId;
    const created = yield call("createJiraIssue", {
      cloudId,
      projectKey,
      issueTypeName: typeName,
      summary: e.summary,
      parent: parentKey,
      assignee_account_id: accountId,
      additional_fields: { priority: { name: e.priorityName } },
    });
    const key = (created.body as { key: string }).key;
    yield call("getJiraIssue", { cloudId, issueIdOrKey: key, fields: ["summary", "parent", "assignee"] });
    return `Created ${key}.`;
  },
  *"mcp-atlassian"({ expected: e }) {
    const parentKey = yield* findIssueKey("jira_search", e, true);
    const parent = yield call("jira_get_issue", { issue_key: parentKey, fields: "project" });
    const projectKey = (parent.body as Parent).fields.project.key;
    const types = yield call("jira_get_project_issue_types", { project_key: projectKey });
    const typeName = (types.body as IssueTypes).issueTypes.find((t) => t.subtask)!.name;
    const users = yield call("jira_get_user_profile", { user_identifier: e.assigneeName });
    const accountId = (users.body as Users).find((u) => u.displayName === e.assigneeName)!.accountId;
    const created = yield call("jira_create_issue", {
      project_key: projectKey,
      summary: e.summary,
      issue_type: typeName,
      assignee: accountId,
      additional_fields: JSON.stringify({ parent: parentKey, priority: { name: e.priorityName } }),
    });
    const key = (created.body as { key: string }).key;
    yield call("jira_get_issue", { issue_key: key, fields: "summary,parent,assignee" });
    return `Created ${key}.`;
  },
};
