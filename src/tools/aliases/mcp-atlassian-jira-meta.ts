/**
 * The lookup and linking tools of mcp-atlassian's Jira surface (see mcp-atlassian-jira.ts): users,
 * issue link types and links, remote (web) links, a project's issue types and create fields, projects.
 */
import { z } from "zod";
import type { ToolSpec } from "../define-tool.ts";
import { jiraDocument } from "./content.ts";
import { defineAlias, defined } from "./define-alias.ts";
import { issue_key, project_key } from "./mcp-atlassian-jira.ts";

export const MCP_ATLASSIAN_JIRA_META_TOOLS: readonly ToolSpec[] = [
  defineAlias({
    name: "jira_get_user_profile",
    operationId: "findUsers",
    description: "Retrieve profile information for a Jira user (by email, name or accountId).",
    args: z.object({
      user_identifier: z.string().min(1).describe("Email address, display name or accountId."),
    }),
    map: (a, site) => ({
      params: site.get("users", a.user_identifier)
        ? { accountId: a.user_identifier }
        : { query: a.user_identifier },
      body: undefined,
    }),
  }),
  defineAlias({
    name: "jira_search_assignable_users",
    operationId: "findAssignableUsers",
    description:
      "Search users assignable in a project or on an issue (give exactly one of project_key, issue_key).",
    args: z.object({
      query: z.string().describe("Display name, username or email fragment."),
      project_key: project_key.optional(),
      issue_key: issue_key.optional(),
      limit: z.number().int().min(1).max(1000).optional().describe("Maximum users (default 20)."),
    }),
    map: (a) => ({
      params: defined({
        query: a.query,
        project: a.project_key,
        issueKey: a.issue_key,
        maxResults: a.limit ?? 20,
      }),
      body: undefined,
    }),
  }),
  defineAlias({
    name: "jira_get_link_types",
    operationId: "getIssueLinkTypes",
    description: "Get the available issue link types.",
    args: z.object({}),
    map: () => ({ params: {}, body: undefined }),
  }),
  defineAlias({
    name: "jira_create_issue_link",
    operationId: "linkIssues",
    description: "Create a link between two Jira issues, e.g. link_type 'Blocks': inward blocks outward.",
    args: z.object({
      link_type: z.string().min(1).describe("Link type name, e.g. 'Blocks', 'Relates'."),
      inward_issue_key: issue_key,
      outward_issue_key: issue_key,
      comment: z.string().optional().describe("A comment to add to the link (Markdown)."),
    }),
    map: (a) => ({
      params: {},
      body: defined({
        type: { name: a.link_type },
        inwardIssue: { key: a.inward_issue_key },
        outwardIssue: { key: a.outward_issue_key },
        comment: a.comment === undefined ? undefined : { body: jiraDocument(a.comment) },
      }),
    }),
  }),
  defineAlias({
    name: "jira_create_remote_issue_link",
    operationId: "createOrUpdateRemoteIssueLink",
    description: "Add a web link (e.g. a Confluence page) to a Jira issue.",
    args: z.object({
      issue_key,
      url: z.string().min(1).describe("URL of the linked page."),
      title: z.string().min(1).describe("Title shown for the link."),
      summary: z.string().optional().describe("A short description."),
      relationship: z.string().optional().describe("How it relates, e.g. 'documentation'."),
      icon_url: z.string().optional().describe("URL of a 16x16 icon."),
    }),
    map: (a) => ({
      params: { issueIdOrKey: a.issue_key },
      body: defined({
        relationship: a.relationship,
        object: defined({
          url: a.url,
          title: a.title,
          summary: a.summary,
          icon: a.icon_url === undefined ? undefined : { url16x16: a.icon_url },
        }),
      }),
    }),
  }),
  defineAlias({
    name: "jira_get_project_issue_types",
    operationId: "getCreateIssueMetaIssueTypes",
    description: "Get the issue types available in a Jira project.",
    args: z.object({ project_key }),
    map: (a) => ({ params: { projectIdOrKey: a.project_key }, body: undefined }),
  }),
  defineAlias({
    name: "jira_get_create_fields",
    operationId: "getCreateIssueMetaIssueTypeId",
    description:
      "Get the fields (required flags, allowed values) for creating an issue of a type in a project.",
    args: z.object({
      project_key,
      issue_type_id: z.string().min(1).describe("Issue type id from jira_get_project_issue_types."),
    }),
    map: (a) => ({
      params: { projectIdOrKey: a.project_key, issueTypeId: a.issue_type_id },
      body: undefined,
    }),
  }),
  defineAlias({
    name: "jira_get_all_projects",
    operationId: "searchProjects",
    description: "Get all Jira projects you can see.",
    args: z.object({ include_archived: z.boolean().optional().describe("Include archived projects.") }),
    map: (a) => ({ params: a.include_archived ? { status: ["live", "archived"] } : {}, body: undefined }),
  }),
];
