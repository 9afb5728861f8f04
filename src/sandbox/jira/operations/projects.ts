/** Jira project reads: getProject (by id or case-sensitive key) and searchProjects (PageBeanProject). */
import { z } from "zod";
import { jiraError } from "../../api-error.ts";
import { defineOperation, type Operation } from "../../define-operation.ts";
import { qInt, qInt32, qList } from "../../params.ts";
import type { Site } from "../../site.ts";
import type { Project } from "../model.ts";
import { presentProject, presentProjectSummary } from "../present-project.ts";
import { findProject, findUser } from "../store.ts";

/** Finds a project by id or key, or throws Jira's 404. */
export function requireProject(site: Site, idOrKey: string): Project {
  const project = findProject(site, idOrKey);
  if (project) return project;
  const by = /^\d+$/.test(idOrKey) ? "id" : "key";
  throw jiraError(404, [`No project could be found with ${by} '${idOrKey}'.`]);
}

export const getProject = defineOperation({
  operationId: "getProject",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/project/{projectIdOrKey}",
  summary:
    "Returns a project's details: key, name, description, lead, default assignee and its issue types (with their ids).",
  effect: "read",
  status: 200,
  params: z.object({
    projectIdOrKey: z
      .string()
      .min(1)
      .describe("The project key (case sensitive, e.g. ENG) or numeric project id (e.g. 10000)."),
    expand: z
      .string()
      .optional()
      .describe("Comma-separated expansions; description, lead and issueTypes are always included."),
    properties: qList(z.string()).optional().describe("Project property keys to return (none are stored)."),
  }),
  handler: (site, { params }, ctx) =>
    presentProject(site, ctx.baseUrl, requireProject(site, params.projectIdOrKey)),
});

const ORDER_FIELDS = [
  "category",
  "key",
  "name",
  "owner",
  "issueCount",
  "lastIssueUpdatedDate",
  "archivedDate",
  "deletedDate",
] as const;
const ORDER_BY = ORDER_FIELDS.flatMap((f) => [f, `+${f}`, `-${f}`]) as [string, ...string[]];

export const searchProjects = defineOperation({
  operationId: "searchProjects",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/project/search",
  summary: "Lists the projects visible to you, a page at a time, optionally filtered by text or keys.",
  effect: "read",
  status: 200,
  params: z.object({
    startAt: qInt32()
      .refine((n) => n >= 0, "must not be negative")
      .optional()
      .describe("Index of the first project to return (default 0)."),
    maxResults: qInt32()
      .refine((n) => n >= 1, "must be at least 1")
      .optional()
      .describe("Projects per page (default 50; values above 100 are treated as 100)."),
    orderBy: z
      .enum(ORDER_BY)
      .optional()
      .describe(
        "Sort field, optionally prefixed with - for descending: key (default), name, owner, issueCount.",
      ),
    id: qList(qInt()).optional().describe("Only projects with these numeric ids."),
    keys: qList(z.string()).optional().describe("Only projects with these keys (case sensitive)."),
    query: z.string().optional().describe("Text matched case-insensitively against project keys and names."),
    typeKey: z
      .string()
      .optional()
      .describe("Comma-separated project types; every project here is 'software'."),
    categoryId: qInt().optional().describe("Project category id (no project here has a category)."),
    action: z.enum(["view", "browse", "edit", "create"]).optional(),
    expand: qList(z.string())
      .optional()
      .describe("Extra details per project: description, lead, issueTypes (comma-separated)."),
    status: qList(z.enum(["live", "archived", "deleted"]))
      .optional()
      .describe("Project states to include (default live; no project here is archived or deleted)."),
    properties: z.unknown().optional(),
    propertyQuery: z.string().optional(),
  }),
  handler: (site, { params }, ctx) => {
    const startAt = params.startAt ?? 0;
    const maxResults = Math.min(params.maxResults ?? 50, 100);
    const query = params.query?.toLowerCase();
    const types = params.typeKey?.split(",").map((t) => t.trim());
    const matching = [...site.values("projects")].filter(
      (p) =>
        (!params.id || params.id.includes(Number(p.id))) &&
        (!params.keys || params.keys.includes(p.key)) &&
        (!query || p.key.toLowerCase().includes(query) || p.name.toLowerCase().includes(query)) &&
        (!types || types.includes("software")) &&
        params.categoryId === undefined &&
        (!params.status || params.status.includes("live")),
    );
    const sorted = sortProjects(site, matching, params.orderBy ?? "key");
    const page = sorted.slice(startAt, startAt + maxResults);
    const url = (at: number) => {
      const search = new URLSearchParams();
      if (params.query !== undefined) search.set("query", params.query);
      for (const key of params.keys ?? []) search.append("keys", key);
      if (params.orderBy) search.set("orderBy", params.orderBy);
      search.set("startAt", String(at));
      search.set("maxResults", String(maxResults));
      return `${ctx.baseUrl}/rest/api/3/project/search?${search}`;
    };
    const isLast = startAt + maxResults >= sorted.length;
    return {
      self: url(startAt),
      ...(isLast ? {} : { nextPage: url(startAt + maxResults) }),
      maxResults,
      startAt,
      total: sorted.length,
      isLast,
      values: page.map((p) => presentProjectSummary(site, ctx.baseUrl, p, params.expand ?? [])),
    };
  },
});

function sortProjects(site: Site, projects: Project[], orderBy: string): Project[] {
  const descending = orderBy.startsWith("-");
  const field = orderBy.replace(/^[+-]/, "");
  const issues = [...site.values("issues")];
  const sortKey = (p: Project): string | number => {
    if (field === "name") return p.name.toLowerCase();
    if (field === "owner") return findUser(site, p.leadAccountId)?.displayName.toLowerCase() ?? "";
    if (field === "issueCount") return issues.filter((i) => i.projectId === p.id).length;
    if (field === "lastIssueUpdatedDate")
      return Math.max(0, ...issues.filter((i) => i.projectId === p.id).map((i) => i.updated));
    return p.key;
  };
  const sorted = [...projects].sort((a, b) => {
    const [x, y] = [sortKey(a), sortKey(b)];
    return x < y ? -1 : x > y ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  });
  return descending ? sorted.reverse() : sorted;
}

/** searchProjects comes first: routes match in order, and `/project/search` also fits `/project/{projectIdOrKey}`. */
export const PROJECT_OPERATIONS: readonly Operation[] = [searchProjects, getProject];
