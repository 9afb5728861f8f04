/**
 * The Jira tools of Atlassian's Rovo (Remote) MCP server, with its names and argument shapes
 * (tool surface: docs/mcp.md): camelCase arguments, a `cloudId` on every tool, Markdown
 * for descriptions and comments unless `contentFormat` is `adf`, and issue types and parents by name/key.
 * Answers are the REST bodies of the operations they map to.
 */
import { z } from "zod";
import type { ToolSpec } from "../define-tool.ts";
import { jiraDocument } from "./content.ts";
import { defineAlias, defined, fromBody, fromParams } from "./define-alias.ts";

/** Every Rovo tool takes the site's cloudId; the simulator serves one site, so any value names it. */
export const cloudId = z
  .string()
  .optional()
  .describe(
    "The site's cloud id or URL, e.g. https://atlas-gym.atlassian.net (this server has one site, so any value names it).",
  );

const contentFormat = z
  .enum(["markdown", "adf"])
  .optional()
  .describe("Format of description/comment text: markdown (default) or adf (an ADF document).");

/** Fields a search returns when the caller names none (the REST API would return only ids). */
const SEARCH_FIELDS = ["summary", "status", "issuetype", "assignee", "priority", "created", "updated"];

const issueIdOrKey = fromParams("getIssue", "issueIdOrKey").issueIdOrKey;

export const ROVO_JIRA_TOOLS: readonly ToolSpec[] = [
  defineAlias({
    name: "getJiraIssue",
    operationId: "getIssue",
    description: "Get the details of a Jira issue by id or key.",
    args: z.object({ cloudId, ...fromParams("getIssue", "issueIdOrKey", "fields", "expand") }),
    map: ({ cloudId: _, ...params }) => ({ params: defined(params), body: undefined }),
  }),
  defineAlias({
    name: "searchJiraIssuesUsingJql",
    operationId: "searchAndReconsileIssuesUsingJqlPost",
    description: "Search Jira issues with JQL.",
    args: z.object({
      cloudId,
      jql: z.string().min(1).describe('The JQL query, e.g. project = ENG AND status = "In Progress".'),
      fields: z
        .array(z.string())
        .optional()
        .describe(
          "Fields to return (default summary, status, issuetype, assignee, priority, created, updated).",
        ),
      ...fromBody("searchAndReconsileIssuesUsingJqlPost", "maxResults", "nextPageToken"),
    }),
    map: ({ cloudId: _, fields, ...rest }) => ({
      params: {},
      body: defined({ ...rest, fields: fields ?? SEARCH_FIELDS }),
    }),
  }),
  defineAlias({
    name: "createJiraIssue",
    operationId: "createIssue",
    description:
      "Create a Jira issue. For a sub-task, use the project's sub-task type name and give the parent issue key.",
    args: z.object({
      cloudId,
      projectKey: z.string().min(1).describe("Key of the project, e.g. ENG."),
      issueTypeName: z
        .string()
        .min(1)
        .describe("Issue type name as the project lists it, e.g. Task or Sub-task."),
      summary: z.string().describe("One-line summary."),
      description: z.unknown().optional().describe("Description, in Markdown unless contentFormat is adf."),
      parent: z.string().optional().describe("Key of the parent issue (for sub-tasks)."),
      assignee_account_id: z
        .string()
        .optional()
        .describe("accountId of the assignee (from lookupJiraAccountId)."),
      additional_fields: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('More fields by id, e.g. {"priority":{"name":"High"},"labels":["x"]}.'),
      contentFormat,
    }),
    map: (a) => ({
      params: {},
      body: {
        fields: {
          ...a.additional_fields,
          ...defined({
            project: { key: a.projectKey },
            issuetype: { name: a.issueTypeName },
            summary: a.summary,
            description:
              a.description === undefined ? undefined : jiraDocument(a.description, a.contentFormat),
            parent: a.parent === undefined ? undefined : { key: a.parent },
            assignee: a.assignee_account_id === undefined ? undefined : { accountId: a.assignee_account_id },
          }),
        },
      },
    }),
  }),
  defineAlias({
    name: "editJiraIssue",
    operationId: "editIssue",
    description:
      'Update fields of a Jira issue, e.g. fields = {"summary":"...","assignee":{"accountId":"..."},"labels":["x"]}.',
    args: z.object({
      cloudId,
      issueIdOrKey,
      fields: z
        .record(z.string(), z.unknown())
        .describe("Field values by field id; description in Markdown."),
      contentFormat,
    }),
    map: ({ issueIdOrKey, fields, contentFormat }) => ({
      params: { issueIdOrKey },
      body: {
        fields: {
          ...fields,
          ...(typeof fields.description === "string"
            ? { description: jiraDocument(fields.description, contentFormat) }
            : {}),
        },
      },
    }),
  }),
  defineAlias({
    name: "getTransitionsForJiraIssue",
    operationId: "getTransitions",
    description: "List the transitions available from a Jira issue's current status.",
    args: z.object({ cloudId, issueIdOrKey }),
    map: ({ issueIdOrKey }) => ({ params: { issueIdOrKey }, body: undefined }),
  }),
  defineAlias({
    name: "transitionJiraIssue",
    operationId: "doTransition",
    description:
      "Move a Jira issue through its workflow with a transition id from getTransitionsForJiraIssue.",
    args: z.object({
      cloudId,
      issueIdOrKey,
      ...fromBody("doTransition", "transition", "fields", "update"),
    }),
    map: ({ cloudId: _, issueIdOrKey, ...body }) => ({ params: { issueIdOrKey }, body: defined(body) }),
  }),
  defineAlias({
    name: "addCommentToJiraIssue",
    operationId: "addComment",
    description: "Add a comment to a Jira issue.",
    args: z.object({
      cloudId,
      issueIdOrKey,
      commentBody: z.unknown().describe("The comment, in Markdown unless contentFormat is adf."),
      contentFormat,
    }),
    map: ({ issueIdOrKey, commentBody, contentFormat }) => ({
      params: { issueIdOrKey },
      body: { body: jiraDocument(commentBody, contentFormat) },
    }),
  }),
  defineAlias({
    name: "lookupJiraAccountId",
    operationId: "findUsers",
    description: "Find users by name or email and return their accountIds.",
    args: z.object({
      cloudId,
      searchString: z.string().describe("Part of a display name or email address."),
    }),
    map: ({ searchString }) => ({ params: { query: searchString }, body: undefined }),
  }),
  defineAlias({
    name: "getVisibleJiraProjects",
    operationId: "searchProjects",
    description: "List the Jira projects you can see (or create issues in), optionally filtered by text.",
    args: z.object({
      cloudId,
      searchString: z.string().optional().describe("Text matched against project keys and names."),
      ...fromParams("searchProjects", "action", "maxResults", "startAt"),
    }),
    map: ({ cloudId: _, searchString, ...rest }) => ({
      params: defined({ ...rest, query: searchString }),
      body: undefined,
    }),
  }),
  defineAlias({
    name: "getJiraProjectIssueTypesMetadata",
    operationId: "getCreateIssueMetaIssueTypes",
    description: "List the issue types (ids, names, sub-task flag) that can be created in a project.",
    args: z.object({
      cloudId,
      ...fromParams("getCreateIssueMetaIssueTypes", "projectIdOrKey", "maxResults", "startAt"),
    }),
    map: ({ cloudId: _, ...params }) => ({ params: defined(params), body: undefined }),
  }),
  defineAlias({
    name: "getJiraIssueTypeMetaWithFields",
    operationId: "getCreateIssueMetaIssueTypeId",
    description: "List the fields (required flags, allowed values) of an issue type in a project.",
    args: z.object({
      cloudId,
      ...fromParams("getCreateIssueMetaIssueTypeId", "projectIdOrKey", "issueTypeId"),
    }),
    map: ({ cloudId: _, ...params }) => ({ params, body: undefined }),
  }),
  defineAlias({
    name: "getJiraIssueRemoteIssueLinks",
    operationId: "getRemoteIssueLinks",
    description: "List the remote (web) links of a Jira issue.",
    args: z.object({ cloudId, ...fromParams("getRemoteIssueLinks", "issueIdOrKey", "globalId") }),
    map: ({ cloudId: _, ...params }) => ({ params: defined(params), body: undefined }),
  }),
  defineAlias({
    name: "getIssueLinkTypes",
    operationId: "getIssueLinkTypes",
    description: "List the issue link types (e.g. Blocks, Relates).",
    args: z.object({ cloudId }),
    map: () => ({ params: {}, body: undefined }),
  }),
  defineAlias({
    name: "createIssueLink",
    operationId: "linkIssues",
    description: "Link two Jira issues with a link type, e.g. type Blocks: inwardIssue blocks outwardIssue.",
    args: z.object({
      cloudId,
      type: z.union([z.string(), z.record(z.string(), z.unknown())]).describe("Link type name, e.g. Blocks."),
      inwardIssue: z
        .union([z.string(), z.record(z.string(), z.unknown())])
        .describe("Key of the inward issue."),
      outwardIssue: z
        .union([z.string(), z.record(z.string(), z.unknown())])
        .describe("Key of the outward issue."),
    }),
    map: ({ type, inwardIssue, outwardIssue }) => ({
      params: {},
      body: {
        type: typeof type === "string" ? { name: type } : type,
        inwardIssue: typeof inwardIssue === "string" ? { key: inwardIssue } : inwardIssue,
        outwardIssue: typeof outwardIssue === "string" ? { key: outwardIssue } : outwardIssue,
      },
    }),
  }),
];
