/**
 * The plain-array lists clients read at start-up (pycontribs `projects()`, `priorities()`,
 * `issue_types()`, `statuses()`): getAllProjects (deprecated on Cloud but still served), getPriorities,
 * getIssueAllTypes and getStatuses, over the same project data and catalog as the other reads.
 */
import { z } from "zod";
import { defineOperation, type Operation } from "../../define-operation.ts";
import { qInt, qList } from "../../params.ts";
import { PRIORITIES, STATUSES } from "../catalog.ts";
import { presentIssueType, presentPriority, presentStatus } from "../present.ts";
import { presentProjectSummary } from "../present-project.ts";

export const getAllProjects = defineOperation({
  operationId: "getAllProjects",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/project",
  summary: "Lists every project visible to you as a plain array, by key (deprecated: prefer searchProjects).",
  effect: "read",
  status: 200,
  params: z.object({
    expand: qList(z.string())
      .optional()
      .describe("Extra details per project: description, lead, issueTypes (comma-separated)."),
    recent: qInt()
      .refine((n) => n >= 0, "must not be negative")
      .optional()
      .describe("Return at most this many projects (up to 20)."),
    properties: z.unknown().optional(),
  }),
  handler: (site, { params }, ctx) => {
    const projects = [...site.values("projects")].sort((a, b) => (a.key < b.key ? -1 : 1));
    const listed = params.recent === undefined ? projects : projects.slice(0, Math.min(params.recent, 20));
    return listed.map((p) => presentProjectSummary(site, ctx.baseUrl, p, params.expand ?? []));
  },
});

export const getPriorities = defineOperation({
  operationId: "getPriorities",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/priority",
  summary: "Lists the issue priorities (name and id), highest first.",
  effect: "read",
  status: 200,
  params: z.object({}),
  handler: (_site, _input, ctx) => PRIORITIES.map((p) => presentPriority(ctx.baseUrl, p.id)),
});

export const getIssueAllTypes = defineOperation({
  operationId: "getIssueAllTypes",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/issuetype",
  summary: "Lists every issue type of every project (name, id, subtask flag, and the project it belongs to).",
  effect: "read",
  status: 200,
  params: z.object({}),
  handler: (site, _input, ctx) =>
    [...site.values("issueTypes")].map((t) => ({
      ...presentIssueType(ctx.baseUrl, t),
      scope: { type: "PROJECT", project: { id: t.projectId } },
    })),
});

export const getStatuses = defineOperation({
  operationId: "getStatuses",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/status",
  summary: "Lists the workflow statuses (name, id and status category).",
  effect: "read",
  status: 200,
  params: z.object({}),
  handler: (_site, _input, ctx) => STATUSES.map((s) => presentStatus(ctx.baseUrl, s)),
});

export const SITE_LIST_OPERATIONS: readonly Operation[] = [
  getAllProjects,
  getPriorities,
  getIssueAllTypes,
  getStatuses,
];
