/**
 * Create metadata: getCreateIssueMetaIssueTypes (the issue types a project offers, paged) and
 * getCreateIssueMetaIssueTypeId (the fields createIssue takes for one of them, with `required` flags
 * and allowed values). Issue types are per project, so ids differ between projects.
 */
import { z } from "zod";
import { jiraError } from "../../api-error.ts";
import { defineOperation, type Operation } from "../../define-operation.ts";
import { qInt32 } from "../../params.ts";
import type { Site } from "../../site.ts";
import { createMetaFields } from "../create-meta-fields.ts";
import type { Project } from "../model.ts";
import { presentIssueType } from "../present.ts";
import { findProject, projectIssueTypes } from "../store.ts";

const MAX_RESULTS_LIMIT = 200;

const projectIdOrKey = z
  .string()
  .min(1)
  .describe("The project key (e.g. ENG, case-sensitive) or numeric project id.");
const paging = {
  startAt: qInt32()
    .pipe(z.number().min(0))
    .optional()
    .describe("Index of the first item to return (default 0)."),
  maxResults: qInt32()
    .pipe(z.number().min(0))
    .optional()
    .describe("Items per page (default 50, at most 200)."),
};

/** The project, after the paging check Jira runs first; else Jira's 400 or 404. */
function requireProject(site: Site, idOrKey: string, maxResults: number | undefined): Project {
  if (maxResults !== undefined && maxResults > MAX_RESULTS_LIMIT)
    throw jiraError(400, [`Parameter 'maxResults' must not exceed the limit '${MAX_RESULTS_LIMIT}'`]);
  const project = findProject(site, idOrKey);
  if (project) return project;
  const by = /^\d+$/.test(idOrKey) ? "id" : "key";
  throw jiraError(404, [`No project could be found with ${by} '${idOrKey}'.`]);
}

function page<T>(items: T[], startAt = 0, maxResults = 50) {
  return { values: items.slice(startAt, startAt + maxResults), startAt, maxResults, total: items.length };
}

export const getCreateIssueMetaIssueTypes = defineOperation({
  operationId: "getCreateIssueMetaIssueTypes",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/issue/createmeta/{projectIdOrKey}/issuetypes",
  summary:
    "Lists the issue types that can be created in a project (id, name, whether it is a sub-task type). Issue type ids and names differ between projects.",
  effect: "read",
  status: 200,
  params: z.object({ projectIdOrKey, ...paging }),
  handler: (site, { params }, ctx) => {
    const project = requireProject(site, params.projectIdOrKey, params.maxResults);
    const { values, ...rest } = page(projectIssueTypes(site, project.id), params.startAt, params.maxResults);
    const issueTypes = values.map((type) => {
      const { description: _description, ...meta } = presentIssueType(ctx.baseUrl, type);
      return meta;
    });
    return { issueTypes, ...rest };
  },
});

export const getCreateIssueMetaIssueTypeId = defineOperation({
  operationId: "getCreateIssueMetaIssueTypeId",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/issue/createmeta/{projectIdOrKey}/issuetypes/{issueTypeId}",
  summary:
    "Lists the fields createIssue accepts for an issue type of a project: which are required (e.g. parent for sub-tasks), allowed values and defaults.",
  effect: "read",
  status: 200,
  params: z.object({
    projectIdOrKey,
    issueTypeId: z
      .string()
      .min(1)
      .describe("Issue type id from getCreateIssueMetaIssueTypes for this project."),
    ...paging,
  }),
  handler: (site, { params }, ctx) => {
    const project = requireProject(site, params.projectIdOrKey, params.maxResults);
    const type = projectIssueTypes(site, project.id).find((t) => t.id === params.issueTypeId);
    if (!type)
      throw jiraError(404, [
        `Issue type with id '${params.issueTypeId}' does not exist or is not valid for project '${project.key}'.`,
      ]);
    const { values, ...rest } = page(
      createMetaFields(ctx.baseUrl, project, type),
      params.startAt,
      params.maxResults,
    );
    return { fields: values, ...rest };
  },
});

export const CREATE_META_OPERATIONS: readonly Operation[] = [
  getCreateIssueMetaIssueTypes,
  getCreateIssueMetaIssueTypeId,
];
