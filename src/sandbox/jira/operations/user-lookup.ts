/**
 * User lookups clients follow from links and permission checks: getUser (where every user `self` link
 * points) and findUsersWithAllPermissions (every active human user holds the permissions this site
 * models, on every project).
 */
import { z } from "zod";
import { jiraError } from "../../api-error.ts";
import { defineOperation, type Operation } from "../../define-operation.ts";
import { qInt32, qList } from "../../params.ts";
import { presentUser } from "../present.ts";
import { findIssue, findUser } from "../store.ts";
import { byDisplayName, userMatchesQuery } from "../user-query.ts";
import { ISSUE_NOT_FOUND } from "./issues.ts";
import { requireProject } from "./projects.ts";

export const USER_NOT_FOUND = "Specified user does not exist or you do not have required permissions";
export const ACCOUNT_ID_REQUIRED = "The 'accountId' query parameter needs to be provided";

/** Jira's project and global permission keys (the ones a site has; all are granted to active users). */
export const PERMISSION_KEYS = new Set([
  "ADD_COMMENTS",
  "ADMINISTER",
  "ADMINISTER_PROJECTS",
  "ASSIGN_ISSUES",
  "ASSIGNABLE_USER",
  "BROWSE_PROJECTS",
  "BROWSE_USERS",
  "CLOSE_ISSUES",
  "CREATE_ATTACHMENTS",
  "CREATE_ISSUES",
  "DELETE_ALL_COMMENTS",
  "DELETE_ISSUES",
  "DELETE_OWN_COMMENTS",
  "EDIT_ALL_COMMENTS",
  "EDIT_ISSUES",
  "EDIT_OWN_COMMENTS",
  "LINK_ISSUES",
  "MANAGE_WATCHERS",
  "MODIFY_REPORTER",
  "MOVE_ISSUES",
  "RESOLVE_ISSUES",
  "SCHEDULE_ISSUES",
  "TRANSITION_ISSUES",
  "USER_PICKER",
  "VIEW_DEV_TOOLS",
  "WORK_ON_ISSUES",
]);

export const getUser = defineOperation({
  operationId: "getUser",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/user",
  summary: "Returns one user by accountId (where user `self` links point).",
  effect: "read",
  status: 200,
  params: z.object({
    accountId: z.string().max(128).optional().describe("The user's accountId."),
    username: z.string().optional(),
    key: z.string().optional(),
    expand: z.string().optional().describe("Comma-separated: groups, applicationRoles."),
  }),
  handler: (site, { params }, ctx) => {
    if (params.accountId === undefined) throw jiraError(400, [ACCOUNT_ID_REQUIRED]);
    const user = findUser(site, params.accountId);
    if (!user) throw jiraError(404, [USER_NOT_FOUND]);
    const expand = (params.expand ?? "").split(",").map((s) => s.trim());
    return {
      ...presentUser(ctx.baseUrl, user),
      groups: { size: 1, items: [] },
      applicationRoles: { size: 1, items: [] },
      ...(expand.includes("groups") || expand.includes("applicationRoles")
        ? {}
        : { expand: "groups,applicationRoles" }),
    };
  },
});

export const findUsersWithAllPermissions = defineOperation({
  operationId: "findUsersWithAllPermissions",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/user/permission/search",
  summary:
    "Finds users who hold all the given permissions (e.g. ASSIGNABLE_USER,BROWSE_PROJECTS) in a project or on an issue.",
  effect: "read",
  status: 200,
  params: z.object({
    permissions: qList(z.string()).describe("Comma-separated permission keys, e.g. BROWSE_PROJECTS."),
    query: z.string().optional().describe("Text matched against the start of display names and emails."),
    accountId: z.string().max(128).optional().describe("An exact accountId."),
    username: z.string().optional(),
    issueKey: z.string().optional().describe("The issue to check the permissions on."),
    projectKey: z.string().optional().describe("The project to check the permissions in."),
    startAt: qInt32().pipe(z.number().min(0)).optional().describe("Index of the first user (default 0)."),
    maxResults: qInt32().pipe(z.number().min(0)).optional().describe("Users per page (default 50)."),
  }),
  handler: (site, { params }, ctx) => {
    const unknown = params.permissions.filter((key) => !PERMISSION_KEYS.has(key));
    if (params.permissions.length === 0 || unknown.length > 0)
      throw jiraError(400, [`Unrecognized permission: ${unknown.join(", ") || "(none given)"}`]);
    if (params.projectKey !== undefined) requireProject(site, params.projectKey);
    if (params.issueKey !== undefined && !findIssue(site, params.issueKey))
      throw jiraError(404, [ISSUE_NOT_FOUND]);
    const startAt = params.startAt ?? 0;
    return [...site.values("users")]
      .filter(
        (u) =>
          u.active &&
          u.accountType === "atlassian" &&
          (params.accountId === undefined || u.accountId === params.accountId) &&
          (params.query === undefined || userMatchesQuery(u, params.query)),
      )
      .sort(byDisplayName)
      .slice(startAt, startAt + (params.maxResults ?? 50))
      .map((u) => presentUser(ctx.baseUrl, u));
  },
});

export const USER_LOOKUP_OPERATIONS: readonly Operation[] = [getUser, findUsersWithAllPermissions];
