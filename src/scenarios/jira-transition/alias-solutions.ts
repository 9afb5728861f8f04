/** jira-transition through the alias tool sets (src/scenarios/alias-solution.ts): both cover it. */
import { type AliasSolutions, CLOUD_ID as cloudId, findIssueKey } from "../alias-solution.ts";
import { call } from "../define-scenario.ts";
import type { TransitionExpected } from "./scenario.ts";

export const aliasSolutions: AliasSolutions<TransitionExpected> = {
  *rovo({ expected: e }) {
    const key = yield* findIssueKey("searchJiraIssuesUsingJql", e, false);
    for (const id of e.path) {
      yield call("getTransitionsForJiraIssue", { cloudId, issueIdOrKey: key });
      const last = id === e.path.at(-1) && e.resolution;
      yield call("transitionJiraIssue", {
        cloudId,
        issueIdOrKey: key,
        transition: { id },
        ...(last ? { fields: { resolution: { name: e.resolution } } } : {}),
      });
    }
    yield call("getJiraIssue", { cloudId, issueIdOrKey: key, fields: ["status", "resolution"] });
    return `${key} is now ${e.targetStatus}.`;
  },
  *"mcp-atlassian"({ expected: e }) {
    const key = yield* findIssueKey("jira_search", e, true);
    for (const id of e.path) {
      const listed = yield call("jira_get_transitions", { issue_key: key });
      const name = (listed.body as { transitions: { id: string; name: string }[] }).transitions.find(
        (t) => t.id === id,
      )!.name;
      const last = id === e.path.at(-1) && e.resolution;
      yield call("jira_transition_issue", {
        issue_key: key,
        transition_id: name,
        ...(last ? { fields: JSON.stringify({ resolution: { name: e.resolution } }) } : {}),
      });
    }
    yield call("jira_get_issue", { issue_key: key, fields: "status,resolution" });
    return `${key} is now ${e.targetStatus}.`;
  },
};
