/**
 * Lookups that Jira reference solutions share, written as sub-generators (`yield*`): find a person's
 * accountId by display name, an issue key by summary or by assignee, and every issue a JQL query matches
 * (following nextPageToken). Each yields the same tool calls an agent would make.
 */
import type { JiraUser } from "../sandbox/jira/model.ts";
import type { ToolCallRequest, ToolCallResult } from "../tools/tool-call-result.ts";
import { call } from "./define-scenario.ts";
import { type IssueClue, jqlString } from "./jira-picks.ts";

type Lookup<T> = Generator<ToolCallRequest, T, ToolCallResult>;

interface FoundIssue {
  id: string;
  key: string;
  fields: { summary?: string; status?: { name: string } };
}

/** The accountId of the active person with exactly this display name, or null when there is none. */
export function* accountIdOf(name: string): Lookup<string | null> {
  const found = yield call("jira_find_users", { query: name });
  const users = (found.body as JiraUser[]) ?? [];
  return users.find((u) => u.displayName === name && u.active)?.accountId ?? null;
}

/** Every issue `jql` matches, page after page. */
export function* searchAll(jql: string, fields: string[] = ["summary"]): Lookup<FoundIssue[]> {
  const all: FoundIssue[] = [];
  let nextPageToken: string | undefined;
  do {
    const page = yield call("jira_search_issues", {
      jql,
      fields,
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    const body = page.body as { issues: FoundIssue[]; nextPageToken?: string };
    all.push(...body.issues);
    nextPageToken = body.nextPageToken;
  } while (nextPageToken);
  return all;
}

/** The key of the issue a prompt names: as given, by exact summary, or via its assignee's accountId. */
export function* issueKeyOf(clue: IssueClue): Lookup<string> {
  if (clue.kind === "key") return clue.key;
  if (clue.kind === "summary") {
    const found = yield* searchAll(`project = ${clue.projectKey} AND summary ~ ${jqlString(clue.summary)}`);
    return found.find((i) => i.fields.summary === clue.summary)!.key;
  }
  const accountId = yield* accountIdOf(clue.assigneeName!);
  const found = yield* searchAll(`project = ${clue.projectKey} AND assignee = "${accountId}"`);
  return found[0]!.key;
}
