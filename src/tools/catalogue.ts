/**
 * The default agent tool catalogue: atlas-gym's snake_case names (`jira_get_issue`, ...) bound to the
 * operations they call. Each entry only names the operation and adds a hint on where argument values
 * come from; parameters are derived from the operation (see define-tool.ts).
 */
import { defineTool, type Tool, type ToolSpec } from "./define-tool.ts";

export const DEFAULT_TOOL_SPECS: readonly ToolSpec[] = [
  {
    name: "jira_get_issue",
    operationId: "getIssue",
    hide: ["fieldsByKeys", "updateHistory"],
    hint: "Use expand='transitions' to see the transitions available from its status.",
  },
  {
    name: "jira_search_issues",
    operationId: "searchAndReconsileIssuesUsingJqlPost",
    hint: "Returns only issue ids unless `fields` lists the fields to return (e.g. ['summary','status']). Pass `nextPageToken` from the previous answer to get the next page.",
  },
  {
    name: "jira_get_transitions",
    operationId: "getTransitions",
    hint: "Transition ids differ by current status; use an id from this list with jira_transition_issue.",
  },
  {
    name: "jira_transition_issue",
    operationId: "doTransition",
    hint: "transition.id comes from jira_get_transitions. Set fields.resolution (e.g. {name:'Done'}) only on a transition to Done.",
  },
  {
    name: "jira_create_issue",
    operationId: "createIssue",
    hint: "For a sub-task: fields.parent.key is the parent issue key and fields.issuetype.id is the project's sub-task type id from jira_get_issue_types; fields.assignee.accountId comes from jira_find_users.",
  },
  {
    name: "jira_edit_issue",
    operationId: "editIssue",
    hint: "Use `fields` to set values or `update` for add/remove operations, e.g. update.labels = [{add:'x'}].",
  },
  { name: "jira_get_project", operationId: "getProject" },
  {
    name: "jira_search_projects",
    operationId: "searchProjects",
    hint: "Filter by `query` (text in the key or name); expand=['lead'] adds each project's lead.",
  },
  {
    name: "jira_get_issue_types",
    operationId: "getCreateIssueMetaIssueTypes",
    hint: "Issue type ids are specific to each project.",
  },
  {
    name: "jira_get_create_fields",
    operationId: "getCreateIssueMetaIssueTypeId",
    hint: "Lists the fields of an issue type with their `required` flags and allowed values.",
  },
  {
    name: "jira_find_users",
    operationId: "findUsers",
    hint: "Match people by name or email; use the returned accountId wherever a user is needed.",
  },
  { name: "jira_assign_issue", operationId: "assignIssue", hint: "accountId comes from jira_find_users." },
  {
    name: "jira_add_comment",
    operationId: "addComment",
    hint: "body is an Atlassian Document: {type:'doc', version:1, content:[{type:'paragraph', content:[{type:'text', text:'...'}]}]}. Mention a user with an inline node {type:'mention', attrs:{id:'<accountId>'}}.",
  },
  {
    name: "jira_get_comments",
    operationId: "getComments",
    hint: "Comments of one issue, oldest first.",
  },
  {
    name: "jira_get_issue_link_types",
    operationId: "getIssueLinkTypes",
    hint: "Each type has a name (e.g. 'Blocks') and two phrasings: outward ('blocks') and inward ('is blocked by').",
  },
  {
    name: "jira_link_issues",
    operationId: "linkIssues",
    hint: "type.name comes from jira_get_issue_link_types. For 'A blocks B': inwardIssue = A, outwardIssue = B (inwardIssue takes the outward phrasing).",
  },
  {
    name: "jira_create_remote_link",
    operationId: "createOrUpdateRemoteIssueLink",
    hint: "Links the issue to an external page: object.url and object.title are required.",
  },
  { name: "jira_get_remote_links", operationId: "getRemoteIssueLinks" },
  {
    name: "confluence_get_spaces",
    operationId: "getSpaces",
    hint: "Filter by `keys` (e.g. ['ENG']) to find a space's numeric id.",
  },
  {
    name: "confluence_get_pages",
    operationId: "getPages",
    hint: "Filter by `space-id` (numeric id from confluence_get_spaces) and exact `title` to find a page's id.",
  },
  {
    name: "confluence_get_page",
    operationId: "getPageById",
    hint: "Set body-format='storage' to include the page body.",
  },
  { name: "confluence_get_child_pages", operationId: "getChildPages" },
  {
    name: "confluence_create_page",
    operationId: "createPage",
    hint: "spaceId is the numeric space id from confluence_get_spaces; parentId is a page id from confluence_get_pages; body = {representation:'storage', value:'<p>...</p>'}.",
  },
  {
    name: "confluence_update_page",
    operationId: "updatePage",
    hint: "version.number must be the page's current version number plus one.",
  },
  { name: "confluence_get_page_labels", operationId: "getPageLabels" },
  {
    name: "confluence_add_page_labels",
    operationId: "addLabelsToContent",
    bodyArg: "labels",
    hint: "labels = [{prefix:'global', name:'lowercase-no-spaces'}]; existing labels are kept.",
  },
  {
    name: "confluence_remove_page_label",
    operationId: "removeLabelFromContentUsingQueryParameter",
    hint: "id is the numeric page id; name is the label to remove, e.g. 'runbook'. Removes it from that page only.",
  },
  {
    name: "confluence_search_cql",
    operationId: "searchByCQL",
    hint: "E.g. cql='type=page AND space=ENG AND label=\"runbook\"'. Results are paged: pass `start` (or the cursor of _links.next) for more.",
  },
];

let defaults: Map<string, Tool> | undefined;

/** The default tool set, by name (built on first use). */
export function defaultTools(): ReadonlyMap<string, Tool> {
  defaults ??= new Map(DEFAULT_TOOL_SPECS.map((spec) => [spec.name, defineTool(spec)]));
  return defaults;
}
