/** Jira user reads: findUsers (user picker), findAssignableUsers (per project or issue) and getCurrentUser. */
import { z } from "zod";
import { jiraError } from "../../api-error.ts";
import { defineOperation, type Operation } from "../../define-operation.ts";
import { qBool, qInt, qInt32, qList } from "../../params.ts";
import type { JiraUser } from "../model.ts";
import { presentUser } from "../present.ts";
import { findIssue, findUser } from "../store.ts";
import { byDisplayName, userMatchesQuery } from "../user-query.ts";
import { ISSUE_NOT_FOUND } from "./issues.ts";
import { requireProject } from "./projects.ts";

export const FIND_USERS_NO_CRITERIA = "One of 'query', 'accountId' or 'property' must be provided.";
export const FIND_USERS_BOTH = "The 'query' and 'accountId' parameters cannot be used together.";
export const ASSIGNABLE_NO_SCOPE = "One of 'issueKey', 'issueId' or 'project' must be provided.";

const paging = {
  startAt: qInt32()
    .refine((n) => n >= 0, "must not be negative")
    .optional()
    .describe("Index of the first user to return (default 0)."),
  maxResults: qInt32()
    .refine((n) => n >= 0, "must not be negative")
    .optional()
    .describe("Users per page (default 50)."),
};

function page(users: JiraUser[], startAt = 0, maxResults = 50): JiraUser[] {
  return users.sort(byDisplayName).slice(startAt, startAt + maxResults);
}

export const findUsers = defineOperation({
  operationId: "findUsers",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/user/search",
  summary:
    "Finds active users whose display name or email starts with the query (any word of the name counts); use it to get an accountId.",
  effect: "read",
  status: 200,
  params: z.object({
    query: z
      .string()
      .optional()
      .describe(
        "Text matched case-insensitively against the start of display names and emails, e.g. 'priya'.",
      ),
    accountId: z.string().max(128).optional().describe("An exact accountId to look up (not with query)."),
    property: z.string().optional().describe("A user property query (no user properties are stored)."),
    username: z.string().optional(),
    ...paging,
  }),
  handler: (site, { params }, ctx) => {
    const { query, accountId, property } = params;
    if (query === undefined && accountId === undefined && property === undefined)
      throw jiraError(400, [FIND_USERS_NO_CRITERIA]);
    if (query !== undefined && accountId !== undefined) throw jiraError(400, [FIND_USERS_BOTH]);
    const users = [...site.values("users")].filter(
      (u) =>
        (accountId === undefined || u.accountId === accountId) &&
        (query === undefined || (u.active && userMatchesQuery(u, query))) &&
        property === undefined,
    );
    return page(users, params.startAt, params.maxResults).map((u) => presentUser(ctx.baseUrl, u));
  },
});

export const findAssignableUsers = defineOperation({
  operationId: "findAssignableUsers",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/user/assignable/search",
  summary:
    "Lists the users who can be assigned issues in a project or on an issue, optionally filtered by a name or email prefix.",
  effect: "read",
  status: 200,
  params: z.object({
    project: z
      .string()
      .optional()
      .describe("Project key (case sensitive) or id; required unless issueKey or issueId is given."),
    issueKey: z.string().optional().describe("Key of the issue to be assigned, e.g. ENG-12."),
    issueId: z.string().optional().describe("Numeric id of the issue to be assigned."),
    query: z.string().optional().describe("Text matched against the start of display names and emails."),
    accountId: z.string().max(128).optional().describe("Check whether this exact accountId is assignable."),
    sessionId: z.string().optional(),
    username: z.string().optional(),
    actionDescriptorId: qInt().optional().describe("A transition id, to ask who is assignable during it."),
    recommend: qBool().optional(),
    accountType: qList(z.string()).optional(),
    appType: qList(z.string()).optional(),
    ...paging,
  }),
  handler: (site, { params }, ctx) => {
    const { project, issueKey, issueId, query, accountId } = params;
    if (project === undefined && issueKey === undefined && issueId === undefined)
      throw jiraError(400, [ASSIGNABLE_NO_SCOPE]);
    if (project !== undefined) requireProject(site, project);
    for (const ref of [issueKey, issueId]) {
      if (ref !== undefined && !findIssue(site, ref)) throw jiraError(404, [ISSUE_NOT_FOUND]);
    }
    const users = [...site.values("users")].filter(
      (u) =>
        u.active &&
        u.accountType === "atlassian" &&
        (accountId === undefined || u.accountId === accountId) &&
        (query === undefined || userMatchesQuery(u, query)),
    );
    return page(users, params.startAt, params.maxResults).map((u) => presentUser(ctx.baseUrl, u));
  },
});

export const getCurrentUser = defineOperation({
  operationId: "getCurrentUser",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/myself",
  summary: "Returns the user you are acting as (your own accountId, name and email).",
  effect: "read",
  status: 200,
  params: z.object({
    expand: z.string().optional().describe("Comma-separated: groups, applicationRoles."),
  }),
  handler: (site, _input, ctx) => {
    const user = findUser(site, ctx.accountId);
    if (!user) throw jiraError(401, ["Client must be authenticated to access this resource."]);
    return {
      ...presentUser(ctx.baseUrl, user),
      groups: { size: 1, items: [] },
      applicationRoles: { size: 1, items: [] },
      expand: "groups,applicationRoles",
    };
  },
});

export const USER_OPERATIONS: readonly Operation[] = [findUsers, findAssignableUsers, getCurrentUser];
