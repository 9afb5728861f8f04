/**
 * The Jira tools of the community sooperset/mcp-atlassian server (tool surface: docs/mcp.md):
 * `jira_*` names, flat snake_case arguments, comma-separated `fields`, JSON-text objects for
 * `fields` / `additional_fields`, Markdown for descriptions and comments, users by email or name and
 * transitions by id or name (resolved on the site, as the server does). Its richer options that would
 * need a second operation (a comment or transition inside jira_update_issue, attachments, worklogs) are
 * left out: each tool here runs exactly one operation.
 */
import { z } from "zod";
import type { Site } from "../../sandbox/site.ts";
import type { ToolSpec } from "../define-tool.ts";
import { jiraDocument, jsonObject } from "./content.ts";
import { defineAlias, defined } from "./define-alias.ts";
import { accountIdFor, transitionIdFor } from "./lookups.ts";

/** mcp-atlassian's DEFAULT_READ_JIRA_FIELDS: what jira_get_issue and jira_search return by default. */
const DEFAULT_FIELDS =
  "summary,description,status,assignee,reporter,labels,priority,created,updated,issuetype";

export const issue_key = z.string().min(1).describe("Jira issue key, e.g. 'PROJ-123'.");
export const project_key = z.string().min(1).describe("Jira project key, e.g. 'PROJ'.");
const fields = z
  .string()
  .optional()
  .describe(`Comma-separated fields to return, or '*all' (default '${DEFAULT_FIELDS}').`);

const fieldList = (value: string | undefined) =>
  value?.trim() === "*all"
    ? undefined
    : (value ?? DEFAULT_FIELDS)
        .split(",")
        .map((f) => f.trim())
        .filter(Boolean);

/** An assignee given by accountId, email or display name; null or "" unassigns. */
const assigneeRef = (site: Site, value: string | null | undefined) =>
  value === undefined
    ? undefined
    : value === null || value === ""
      ? null
      : { accountId: accountIdFor(site, value) };

/** Field values as the REST API takes them: Markdown descriptions to ADF, parent/priority names to refs. */
function restFields(site: Site, values: Record<string, unknown>): Record<string, unknown> {
  const out = { ...values };
  if (typeof out.description === "string") out.description = jiraDocument(out.description);
  if (typeof out.parent === "string") out.parent = { key: out.parent };
  if (typeof out.priority === "string") out.priority = { name: out.priority };
  if (typeof out.assignee === "string" || out.assignee === null)
    out.assignee = assigneeRef(site, out.assignee as string | null);
  if (typeof out.components === "string")
    out.components = out.components.split(",").map((name) => ({ name: name.trim() }));
  return out;
}

/** The issue tools; users, links, issue types and projects are in mcp-atlassian-jira-meta.ts. */
export const MCP_ATLASSIAN_JIRA_TOOLS: readonly ToolSpec[] = [
  defineAlias({
    name: "jira_get_issue",
    operationId: "getIssue",
    description: "Get details of a specific Jira issue.",
    args: z.object({
      issue_key,
      fields,
      expand: z.string().optional().describe("Comma-separated expansions, e.g. 'transitions,changelog'."),
    }),
    map: (a) => ({
      params: defined({ issueIdOrKey: a.issue_key, fields: fieldList(a.fields), expand: a.expand }),
      body: undefined,
    }),
  }),
  defineAlias({
    name: "jira_search",
    operationId: "searchAndReconsileIssuesUsingJqlPost",
    description: "Search Jira issues using JQL (Jira Query Language).",
    args: z.object({
      jql: z.string().min(1).describe("JQL query, e.g. 'project = PROJ AND status = \"In Progress\"'."),
      fields,
      limit: z.number().int().min(1).max(50).optional().describe("Maximum results (1-50, default 10)."),
      projects_filter: z.string().optional().describe("Comma-separated project keys to limit the search to."),
      page_token: z.string().optional().describe("nextPageToken from the previous page."),
    }),
    map: (a) => {
      const keys =
        a.projects_filter
          ?.split(",")
          .map((k) => `"${k.trim()}"`)
          .filter((k) => k !== '""') ?? [];
      const jql = keys.length > 0 ? `project IN (${keys.join(", ")}) AND (${a.jql})` : a.jql;
      return {
        params: {},
        body: defined({
          jql,
          fields: fieldList(a.fields),
          maxResults: a.limit ?? 10,
          nextPageToken: a.page_token,
        }),
      };
    },
  }),
  defineAlias({
    name: "jira_get_project_issues",
    operationId: "searchAndReconsileIssuesUsingJqlPost",
    description: "Get the issues of a Jira project.",
    args: z.object({
      project_key,
      limit: z.number().int().min(1).max(50).optional().describe("Maximum results (default 10)."),
    }),
    map: (a) => ({
      params: {},
      body: { jql: `project = "${a.project_key}"`, fields: fieldList(undefined), maxResults: a.limit ?? 10 },
    }),
  }),
  defineAlias({
    name: "jira_create_issue",
    operationId: "createIssue",
    description:
      'Create a new Jira issue. For a sub-task use the project\'s sub-task type name and set additional_fields to {"parent": "PROJ-123"}.',
    args: z.object({
      project_key,
      summary: z.string().describe("Summary (title) of the issue."),
      issue_type: z
        .string()
        .min(1)
        .describe("Issue type name, e.g. 'Task', 'Bug', 'Story', or the sub-task type."),
      assignee: z.string().optional().describe("Assignee's email, display name or accountId."),
      description: z.string().optional().describe("Description in Markdown."),
      components: z.string().optional().describe("Comma-separated component names."),
      additional_fields: jsonObject(
        'Other fields as a JSON object, e.g. {"priority": {"name": "High"}, "labels": ["x"], "parent": "PROJ-123"}.',
      ).optional(),
    }),
    map: (a, site) => ({
      params: {},
      body: {
        fields: restFields(site, {
          ...a.additional_fields,
          ...defined({
            project: { key: a.project_key },
            summary: a.summary,
            issuetype: { name: a.issue_type },
            assignee: a.assignee,
            description: a.description,
            components: a.components,
          }),
        }),
      },
    }),
  }),
  defineAlias({
    name: "jira_update_issue",
    operationId: "editIssue",
    description: "Update an existing Jira issue's fields.",
    args: z.object({
      issue_key,
      fields: jsonObject(
        'Fields to set as a JSON object, e.g. {"summary": "New title", "assignee": "a@b.com"}.',
      ),
      additional_fields: jsonObject("More fields as a JSON object.").optional(),
      components: z.string().optional().describe("Comma-separated component names."),
    }),
    map: (a, site) => ({
      params: { issueIdOrKey: a.issue_key },
      body: {
        fields: restFields(site, {
          ...a.additional_fields,
          ...a.fields,
          ...defined({ components: a.components }),
        }),
      },
    }),
  }),
  defineAlias({
    name: "jira_assign_issue",
    operationId: "assignIssue",
    description: "Assign a Jira issue to a user (by email, display name or accountId); null or '' unassigns.",
    args: z.object({
      issue_key,
      assignee: z.string().nullable().describe("The assignee; null or '' to unassign."),
    }),
    map: (a, site) => ({
      params: { issueIdOrKey: a.issue_key },
      body: { accountId: assigneeRef(site, a.assignee)?.accountId ?? null },
    }),
  }),
  defineAlias({
    name: "jira_get_transitions",
    operationId: "getTransitions",
    description: "Get the transitions available for a Jira issue.",
    args: z.object({ issue_key }),
    map: (a) => ({ params: { issueIdOrKey: a.issue_key }, body: undefined }),
  }),
  defineAlias({
    name: "jira_transition_issue",
    operationId: "doTransition",
    description: "Transition a Jira issue to a new status.",
    args: z.object({
      issue_key,
      transition_id: z
        .union([z.string(), z.number()])
        .describe("Transition id or name, or the target status name (from jira_get_transitions)."),
      fields: jsonObject(
        'Fields to set during the transition, e.g. {"resolution": {"name": "Done"}}.',
      ).optional(),
      comment: z.string().optional().describe("A comment to add during the transition (Markdown)."),
    }),
    map: (a, site) => ({
      params: { issueIdOrKey: a.issue_key },
      body: defined({
        transition: { id: transitionIdFor(site, a.issue_key, a.transition_id) },
        fields: a.fields,
        update:
          a.comment === undefined ? undefined : { comment: [{ add: { body: jiraDocument(a.comment) } }] },
      }),
    }),
  }),
  defineAlias({
    name: "jira_add_comment",
    operationId: "addComment",
    description: "Add a comment to a Jira issue.",
    args: z.object({
      issue_key,
      body: z.string().describe("Comment text in Markdown."),
      visibility: jsonObject(
        'Restrict visibility, e.g. {"type": "group", "value": "jira-users"}.',
      ).optional(),
    }),
    map: (a) => ({
      params: { issueIdOrKey: a.issue_key },
      body: defined({ body: jiraDocument(a.body), visibility: a.visibility }),
    }),
  }),
];
