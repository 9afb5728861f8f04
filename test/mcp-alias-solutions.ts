/**
 * Hand-written solutions of every scenario through the Rovo and mcp-atlassian tool sets, the alias
 * counterparts of each scenario's reference solution (which yields default-catalogue calls). Like the
 * references they read what the prompt names, look ids up with the set's own tools, mutate, and verify.
 * They use only `ok` and `body` of each answer, so the same generator drives an in-process episode, an
 * MCP client over stdio or over HTTP.
 *
 * mcp-atlassian has no tool that lists Confluence spaces: like the real server's users, its solutions
 * find a space named only by its name with confluence_search (CQL `type = space AND space.title = ...`).
 */
import type { Task } from "../src/scenarios/define-scenario.ts";
import type { Episode } from "../src/scenarios/episode.ts";
import type { ToolSetName } from "../src/tools/aliases/tool-sets.ts";
import type { ToolCallRequest } from "../src/tools/execute-tool.ts";
import { MCP_ATLASSIAN_FAMILIES, ROVO_FAMILIES } from "./mcp-alias-solutions-families.ts";
import { translated } from "./mcp-alias-translate.ts";

/** What a solution sees of each answer. */
export interface Answer {
  ok: boolean;
  body: unknown;
}

export type AliasSolution = Generator<ToolCallRequest, string, Answer>;
type Solve = (task: Task) => AliasSolution;

const call = (name: string, args: Record<string, unknown>): ToolCallRequest => ({ name, arguments: args });
const cloudId = "https://atlas-gym.atlassian.net";

type Issues = { issues: { key: string; fields: { summary: string } }[] };
type Results<T> = { results: T[] };
type Space = { id: string; key: string; name: string };

/** The key of the issue a Jira task names by summary, found with a JQL search (or given by key). */
function* findIssueKey(
  name: string,
  e: {
    byKey: boolean;
    issueKey?: string;
    parentKey?: string;
    summary?: string;
    parentSummary?: string;
    projectKey?: string;
    projectName?: string;
  },
  flat: boolean,
): Generator<ToolCallRequest, string, Answer> {
  const known = e.issueKey ?? e.parentKey;
  if (e.byKey && known) return known;
  const summary = (e.parentSummary ?? e.summary)!;
  const project = e.projectKey ?? `"${e.projectName}"`;
  const jql = `project = ${project} AND summary ~ "${summary.replace(/"/g, '\\"')}"`;
  const found = yield call(name, flat ? { jql, fields: "summary" } : { cloudId, jql, fields: ["summary"] });
  return (found.body as Issues).issues.find((i) => i.fields.summary === summary)!.key;
}

/** The key of a Confluence space the prompt names by key or only by name (mcp-atlassian's CQL search). */
function* findSpaceKey(e: { spaceKey: string; spaceName: string }, byName: boolean) {
  if (!byName) return e.spaceKey;
  const cql = `type = space AND space.title = "${e.spaceName.replace(/"/g, '\\"')}"`;
  const found: Answer = yield call("confluence_search", { query: cql });
  const results = (found.body as Results<{ space?: { key: string; name: string } }>).results;
  return results.find((r) => r.space?.name === e.spaceName)!.space!.key;
}

// biome-ignore lint/suspicious/noExplicitAny: each solution reads its own scenario's expected values.
type E = any;

const ROVO: Record<string, Solve> = {
  *"jira-transition-v1"({ expected: e }: Task<E>) {
    const key = yield* findIssueKey("searchJiraIssuesUsingJql", e, false);
    for (const id of e.path as string[]) {
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
  *"jira-subtask-create-v1"({ expected: e }: Task<E>) {
    const parentKey = yield* findIssueKey("searchJiraIssuesUsingJql", e, false);
    const parent = yield call("getJiraIssue", { cloudId, issueIdOrKey: parentKey, fields: ["project"] });
    const projectKey = (parent.body as { fields: { project: { key: string } } }).fields.project.key;
    const types = yield call("getJiraProjectIssueTypesMetadata", { cloudId, projectIdOrKey: projectKey });
    const typeName = (types.body as { issueTypes: { name: string; subtask: boolean }[] }).issueTypes.find(
      (t) => t.subtask,
    )!.name;
    const users = yield call("lookupJiraAccountId", { cloudId, searchString: e.assigneeName });
    const accountId = (users.body as { accountId: string; displayName: string }[]).find(
      (u) => u.displayName === e.assigneeName,
    )!.accountId;
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
  *"confluence-page-create-v1"({ expected: e }: Task<E>) {
    const spaces = yield call("getConfluenceSpaces", e.byKey ? { cloudId, keys: [e.spaceKey] } : { cloudId });
    const space = (spaces.body as Results<Space>).results.find((s) =>
      e.byKey ? s.key === e.spaceKey : s.name === e.spaceName,
    )!;
    const parents = yield call("getPagesInConfluenceSpace", {
      cloudId,
      spaceId: space.id,
      title: e.parentTitle,
    });
    const parentId = (parents.body as Results<{ id: string }>).results[0]!.id;
    const created = yield call("createConfluencePage", {
      cloudId,
      spaceId: space.id,
      parentId,
      title: e.title,
      body: e.body,
    });
    const id = (created.body as { id: string }).id;
    yield call("getConfluencePage", { cloudId, pageId: id });
    return `Created "${e.title}".`;
  },
};

const MCP_ATLASSIAN: Record<string, Solve> = {
  *"jira-transition-v1"({ expected: e }: Task<E>) {
    const key = yield* findIssueKey("jira_search", e, true);
    for (const id of e.path as string[]) {
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
  *"jira-subtask-create-v1"({ expected: e }: Task<E>) {
    const parentKey = yield* findIssueKey("jira_search", e, true);
    const parent = yield call("jira_get_issue", { issue_key: parentKey, fields: "project" });
    const projectKey = (parent.body as { fields: { project: { key: string } } }).fields.project.key;
    const types = yield call("jira_get_project_issue_types", { project_key: projectKey });
    const typeName = (types.body as { issueTypes: { name: string; subtask: boolean }[] }).issueTypes.find(
      (t) => t.subtask,
    )!.name;
    const users = yield call("jira_get_user_profile", { user_identifier: e.assigneeName });
    const accountId = (users.body as { accountId: string; displayName: string }[]).find(
      (u) => u.displayName === e.assigneeName,
    )!.accountId;
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
  *"confluence-page-create-v1"({ expected: e }: Task<E>) {
    const spaceKey = yield* findSpaceKey(e, !e.byKey);
    const parent = yield call("confluence_get_page", { title: e.parentTitle, space_key: spaceKey });
    const parentId = (parent.body as { id: string }).id;
    const created = yield call("confluence_create_page", {
      space_key: spaceKey,
      title: e.title,
      content: e.body,
      parent_id: parentId,
    });
    yield call("confluence_get_page", { page_id: (created.body as { id: string }).id });
    return `Created "${e.title}".`;
  },
  *"confluence-page-label-v1"({ expected: e }: Task<E>) {
    const spaceKey = yield* findSpaceKey(e, e.bySpaceName);
    const page = yield call("confluence_get_page", { title: e.title, space_key: spaceKey });
    const pageId = (page.body as { id: string }).id;
    const have = new Set(
      (page.body as { labels: Results<{ name: string }> }).labels.results.map((l) => l.name),
    );
    for (const name of e.requested as string[])
      if (!have.has(name)) yield call("confluence_add_label", { page_id: pageId, name });
    yield call("confluence_get_labels", { page_id: pageId });
    return `Labelled "${e.title}".`;
  },
  *"cross-product-page-link-v1"({ expected: e }: Task<E>) {
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

/** The Jira families whose references translate tool by tool (Rovo has no assign tool). */
const TRANSLATED = [
  "jira-assign-v1",
  "jira-comment-v1",
  "jira-link-issues-v1",
  "jira-edit-fields-v1",
  "jira-bulk-transition-v1",
  "jira-create-issue-v1",
];
for (const id of TRANSLATED) {
  MCP_ATLASSIAN[id] = (task) => translated("mcp-atlassian", task);
  if (id !== "jira-assign-v1") ROVO[id] = (task) => translated("rovo", task);
}

/** The alias solutions by set and scenario id; a scenario a set does not cover has none. */
export const ALIAS_SOLUTIONS: Record<Exclude<ToolSetName, "default">, Record<string, Solve>> = {
  rovo: { ...ROVO, ...ROVO_FAMILIES },
  "mcp-atlassian": { ...MCP_ATLASSIAN, ...MCP_ATLASSIAN_FAMILIES },
};

/** Runs a solution on an episode and records its final message (a task to decline pays only with one). */
export function play(episode: Episode, solution: AliasSolution): string {
  let next = solution.next();
  while (!next.done) {
    const result = episode.step(next.value);
    next = solution.next({ ok: result.ok, body: result.body });
  }
  episode.finish(next.value);
  return next.value;
}
