/**
 * Jira issue reads: getIssue (fields selection, `names`, `transitions`, `changelog` and `renderedFields`
 * expansions, case-insensitive keys).
 */
import { z } from "zod";
import { jiraError } from "../../api-error.ts";
import { defineOperation } from "../../define-operation.ts";
import { qBool, qList } from "../../params.ts";
import type { Site } from "../../site.ts";
import { FIELD_NAMES, selectFieldIds } from "../fields.ts";
import type { Issue } from "../model.ts";
import { ISSUE_FIELD_IDS, presentIssueFields } from "../present.ts";
import { changelogExpansion } from "../present-changelog.ts";
import { renderedFields } from "../rendered-fields.ts";
import { findIssue } from "../store.ts";
import { presentTransitions } from "./transitions-present.ts";

export const ISSUE_NOT_FOUND = "Issue does not exist or you do not have permission to see it.";

/** Finds an issue or throws Jira's 404. */
export function requireIssue(site: Site, idOrKey: string): Issue {
  const issue = findIssue(site, idOrKey);
  if (!issue) throw jiraError(404, [ISSUE_NOT_FOUND]);
  return issue;
}

/** The IssueBean for an issue, with the requested fields and expansions. */
export function presentIssue(
  site: Site,
  base: string,
  issue: Issue,
  fields: string[] | undefined,
  expand: string[],
  fallback = "*all",
) {
  const bean: Record<string, unknown> = {
    expand: "renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations",
    id: issue.id,
    self: `${base}/rest/api/3/issue/${issue.id}`,
    key: issue.key,
    fields: presentIssueFields(site, base, issue, selectFieldIds(ISSUE_FIELD_IDS, fields, fallback)),
  };
  if (expand.includes("names")) {
    bean.names = Object.fromEntries(Object.keys(bean.fields as object).map((k) => [k, FIELD_NAMES[k] ?? k]));
  }
  if (expand.includes("transitions")) bean.transitions = presentTransitions(base, issue, false);
  if (expand.includes("changelog")) bean.changelog = changelogExpansion(site, base, issue.id);
  if (expand.includes("renderedFields"))
    bean.renderedFields = renderedFields(site, issue, bean.fields as Record<string, unknown>);
  return bean;
}

export const getIssue = defineOperation({
  operationId: "getIssue",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/issue/{issueIdOrKey}",
  summary: "Returns the details of an issue: summary, status, assignee, parent, sub-tasks, labels and more.",
  effect: "read",
  status: 200,
  params: z.object({
    issueIdOrKey: z.string().min(1).describe("The issue key (e.g. ENG-12) or numeric id."),
    fields: qList(z.string())
      .optional()
      .describe("Fields to return, e.g. ['summary','status']; default all fields."),
    expand: qList(z.string())
      .optional()
      .describe(
        "Comma-separated expansions: 'names', 'transitions', 'changelog' (the issue's history), 'renderedFields' (rich text as HTML), e.g. 'transitions,names'.",
      ),
    fieldsByKeys: qBool().optional(),
    updateHistory: qBool().optional(),
  }),
  handler: (site, { params }, ctx) =>
    presentIssue(
      site,
      ctx.baseUrl,
      requireIssue(site, params.issueIdOrKey),
      params.fields,
      params.expand ?? [],
    ),
});
