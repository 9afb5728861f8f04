/**
 * Alias solutions by translation: a scenario's reference solution run through another tool set, each
 * default-catalogue call rewritten as that set's call for the same operation. Answers pass through as
 * they come (an alias runs the same operation, so its body is the same), so the reference's own lookups
 * drive the translated run. A scenario whose default tools all have a counterpart in a set declares
 * `aliasSolutions: { <set>: "translate" }` instead of a hand-written solution.
 */
import type { ToolCallRequest, ToolCallResult } from "../tools/tool-call-result.ts";
import type { AliasSolution, Answer } from "./alias-solution.ts";
import { CLOUD_ID as cloudId } from "./alias-solution.ts";
import type { ReferenceSolution } from "./define-scenario.ts";

// biome-ignore lint/suspicious/noExplicitAny: tool arguments of many shapes.
type Args = Record<string, any>;
type Translate = (a: Args, known: Known) => ToolCallRequest;
interface Known {
  /** Issue type names by id, from the issue type lists the run has read. */
  typeNames: Map<string, string>;
}

const to = (name: string, args: Args): ToolCallRequest => ({ name, arguments: args });
const csv = (fields: unknown) => (Array.isArray(fields) ? fields.join(",") : fields);

/** ADF → Markdown for the documents references write: paragraphs of text and user mentions. */
function markdown(doc: Args): string {
  const inline = (n: Args): string =>
    n.type === "mention" ? `[~accountid:${n.attrs.id}]` : n.type === "text" ? n.text : "";
  return (doc.content as Args[]).map((p) => (p.content ?? []).map(inline).join("")).join("\n\n");
}

const ROVO: Record<string, Translate> = {
  jira_get_issue: (a) => to("getJiraIssue", { cloudId, ...a }),
  jira_get_comments: (a) =>
    to("getJiraIssue", { cloudId, issueIdOrKey: a.issueIdOrKey, fields: ["comment"] }),
  jira_search_issues: (a) => to("searchJiraIssuesUsingJql", { cloudId, ...a }),
  jira_find_users: (a) => to("lookupJiraAccountId", { cloudId, searchString: a.query }),
  jira_add_comment: (a) =>
    to("addCommentToJiraIssue", {
      cloudId,
      issueIdOrKey: a.issueIdOrKey,
      commentBody: a.body,
      contentFormat: "adf",
    }),
  jira_get_issue_link_types: () => to("getIssueLinkTypes", { cloudId }),
  jira_link_issues: (a) => to("createIssueLink", { cloudId, ...a }),
  jira_edit_issue: (a) => to("editJiraIssue", { cloudId, issueIdOrKey: a.issueIdOrKey, fields: a.fields }),
  jira_get_transitions: (a) => to("getTransitionsForJiraIssue", { cloudId, ...a }),
  jira_transition_issue: (a) => to("transitionJiraIssue", { cloudId, ...a }),
  jira_search_projects: (a) => to("getVisibleJiraProjects", { cloudId, searchString: a.query }),
  jira_get_issue_types: (a) => to("getJiraProjectIssueTypesMetadata", { cloudId, ...a }),
  jira_create_issue: ({ fields: { project, issuetype, summary, description, ...rest } }, known) =>
    to("createJiraIssue", {
      cloudId,
      projectKey: project.key,
      issueTypeName: issuetype.name ?? known.typeNames.get(issuetype.id),
      summary,
      description,
      contentFormat: "adf",
      additional_fields: rest,
    }),
};

const MCP_ATLASSIAN: Record<string, Translate> = {
  jira_get_issue: (a) => to("jira_get_issue", { issue_key: a.issueIdOrKey, fields: csv(a.fields) }),
  jira_get_comments: (a) => to("jira_get_issue", { issue_key: a.issueIdOrKey, fields: "comment" }),
  jira_search_issues: (a) =>
    to("jira_search", {
      jql: a.jql,
      fields: csv(a.fields),
      limit: 50,
      ...(a.nextPageToken ? { page_token: a.nextPageToken } : {}),
    }),
  jira_find_users: (a) => to("jira_get_user_profile", { user_identifier: a.query }),
  jira_assign_issue: (a) => to("jira_assign_issue", { issue_key: a.issueIdOrKey, assignee: a.accountId }),
  jira_add_comment: (a) => to("jira_add_comment", { issue_key: a.issueIdOrKey, body: markdown(a.body) }),
  jira_get_issue_link_types: () => to("jira_get_link_types", {}),
  jira_link_issues: (a) =>
    to("jira_create_issue_link", {
      link_type: a.type.name,
      inward_issue_key: a.inwardIssue.key,
      outward_issue_key: a.outwardIssue.key,
    }),
  jira_edit_issue: (a) =>
    to("jira_update_issue", { issue_key: a.issueIdOrKey, fields: JSON.stringify(a.fields) }),
  jira_get_transitions: (a) => to("jira_get_transitions", { issue_key: a.issueIdOrKey }),
  jira_transition_issue: (a) =>
    to("jira_transition_issue", {
      issue_key: a.issueIdOrKey,
      transition_id: a.transition.id,
      ...(a.fields ? { fields: JSON.stringify(a.fields) } : {}),
    }),
  jira_search_projects: () => to("jira_get_all_projects", {}),
  jira_get_issue_types: (a) => to("jira_get_project_issue_types", { project_key: a.projectIdOrKey }),
  jira_create_issue: ({ fields: { project, issuetype, summary, description, ...rest } }, known) =>
    to("jira_create_issue", {
      project_key: project.key,
      summary,
      issue_type: issuetype.name ?? known.typeNames.get(issuetype.id),
      description: markdown(description),
      additional_fields: JSON.stringify(rest),
    }),
};

export const TRANSLATIONS = { rovo: ROVO, "mcp-atlassian": MCP_ATLASSIAN } as const;

/** A scenario's reference solution, run through `set`'s tools. */
export function* translated(set: keyof typeof TRANSLATIONS, reference: ReferenceSolution): AliasSolution {
  const known: Known = { typeNames: new Map() };
  let next = reference.next(undefined as unknown as ToolCallResult);
  while (!next.done) {
    const { name, arguments: args } = next.value;
    const translate = TRANSLATIONS[set][name];
    if (!translate) throw new Error(`${set} has no counterpart for ${name}`);
    const answer: Answer = yield translate(args as Args, known);
    for (const t of (answer.body as { issueTypes?: { id: string; name: string }[] })?.issueTypes ?? [])
      known.typeNames.set(t.id, t.name);
    next = reference.next(answer as unknown as ToolCallResult);
  }
  return next.value;
}
