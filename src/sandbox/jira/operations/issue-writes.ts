/**
 * Jira issue writes: createIssue (issues and sub-tasks, with an optional first transition), editIssue
 * (`fields` and `update` operations, optionally answering with the issue) and assignIssue. Every field
 * problem is collected into one 400 like Jira's, and nothing is written unless the whole request is valid.
 */
import { z } from "zod";
import type { AdfDocument } from "../../adf/types.ts";
import { jiraError } from "../../api-error.ts";
import { defineOperation, type Operation, Reply } from "../../define-operation.ts";
import { qBool, qList } from "../../params.ts";
import type { Site } from "../../site.ts";
import { TO_DO } from "../catalog.ts";
import { insertComment } from "../comment-body.ts";
import { mergeFieldUpdates } from "../field-updates.ts";
import { putIssue } from "../history.ts";
import { applyIssueEdit, buildNewIssue, CREATE_FIELDS, EDIT_FIELDS } from "../issue-fields.ts";
import { resolveUser } from "../issue-input.ts";
import { issueUpdateDetailsSchema, transitionIdOf } from "../issue-update-schema.ts";
import type { Issue } from "../model.ts";
import { insertIssue } from "../store.ts";
import { applyTransition, availableTransition, invalidTransitionMessage } from "../workflow.ts";
import { presentIssue, requireIssue } from "./issues.ts";

const issueIdOrKey = z.string().min(1).describe("The issue key (e.g. ENG-12) or numeric id.");

export const createIssue = defineOperation({
  operationId: "createIssue",
  api: "jira",
  method: "POST",
  path: "/rest/api/3/issue",
  summary:
    "Creates an issue or a sub-task. Needs fields.project, fields.issuetype (of that project) and fields.summary; sub-task types also need fields.parent. Returns the new issue's id and key.",
  effect: "write",
  status: 201,
  params: z.object({
    updateHistory: qBool().optional().describe("Whether the project is added to the user's recent history."),
  }),
  body: issueUpdateDetailsSchema,
  handler: (site, { body }, ctx) => {
    const merged = mergeFieldUpdates(body, { settable: CREATE_FIELDS, currentLabels: [], comments: false });
    const built = buildNewIssue(site, merged.values, merged.errors, ctx.accountId);
    if (!built) throw jiraError(400, [], merged.errors);
    const now = site.now();
    const created = insertIssue(site, built.project, {
      ...built.values,
      statusId: TO_DO,
      resolutionId: null,
      resolutionDate: null,
      creatorId: ctx.accountId,
      created: now,
      updated: now,
      statusCategoryChangeDate: now,
    });
    const answer: Record<string, unknown> = {
      id: created.id,
      key: created.key,
      self: `${ctx.baseUrl}/rest/api/3/issue/${created.id}`,
    };
    const transitionId = transitionIdOf(body);
    if (transitionId !== undefined)
      answer.transition = transitionOnCreate(site, created, transitionId, now, ctx.accountId);
    return answer;
  },
});

/** Jira creates the issue first and reports the requested transition's outcome as a nested response. */
function transitionOnCreate(site: Site, issue: Issue, id: string, now: number, authorId: string) {
  const transition = availableTransition(issue, id);
  if (!transition)
    return { status: 400, errorCollection: { errorMessages: [invalidTransitionMessage(id)], errors: {} } };
  putIssue(site, issue, applyTransition(issue, transition, undefined, now), authorId);
  return { status: 200, errorCollection: { errorMessages: [], errors: {} } };
}

export const editIssue = defineOperation({
  operationId: "editIssue",
  api: "jira",
  method: "PUT",
  path: "/rest/api/3/issue/{issueIdOrKey}",
  summary:
    "Edits an issue's fields: `fields` replaces values, `update` applies operations (labels add/remove/set, set for other fields, comment add). Status changes need doTransition instead.",
  effect: "write",
  status: 204,
  params: z.object({
    issueIdOrKey,
    notifyUsers: qBool().optional().describe("Whether watchers are emailed (default true)."),
    overrideScreenSecurity: qBool().optional(),
    overrideEditableFlag: qBool().optional(),
    returnIssue: qBool().optional().describe("If true, answers 200 with the edited issue instead of 204."),
    expand: qList(z.string()).optional().describe("Expansions for the returned issue, e.g. 'names'."),
  }),
  body: issueUpdateDetailsSchema,
  handler: (site, { params, body }, ctx) => {
    const issue = requireIssue(site, params.issueIdOrKey);
    const merged = mergeFieldUpdates(body, {
      settable: EDIT_FIELDS,
      currentLabels: issue.labels,
      comments: true,
    });
    const next = applyIssueEdit(site, issue, merged.values, merged.errors);
    if (!next) throw jiraError(400, [], merged.errors);
    if (JSON.stringify(next) !== JSON.stringify(issue))
      putIssue(site, issue, { ...next, updated: site.now() }, ctx.accountId);
    addComments(site, issue.id, ctx.accountId, merged.comments);
    if (!params.returnIssue) return undefined;
    const current = site.get("issues", issue.id)!;
    return new Reply(200, presentIssue(site, ctx.baseUrl, current, undefined, params.expand ?? []));
  },
});

/** Adds comments given as `update.comment` operations (the comment insert also bumps `updated`). */
export function addComments(site: Site, issueId: string, authorId: string, bodies: AdfDocument[]): void {
  for (const body of bodies) insertComment(site, site.get("issues", issueId)!, authorId, body);
}

export const assignIssue = defineOperation({
  operationId: "assignIssue",
  api: "jira",
  method: "PUT",
  path: "/rest/api/3/issue/{issueIdOrKey}/assignee",
  summary:
    'Assigns an issue to a user by accountId (from findUsers or findAssignableUsers); accountId null unassigns it and "-1" assigns the project\'s default assignee.',
  effect: "write",
  status: 204,
  params: z.object({ issueIdOrKey }),
  body: z
    .looseObject({
      accountId: z
        .string()
        .nullable()
        .optional()
        .describe(
          'accountId of the new assignee (from findUsers); null to unassign; "-1" for the project default.',
        ),
    })
    .describe('The user to assign, e.g. {"accountId":"5b10ac8d82e05b22cc7d4ef5"}.'),
  handler: (site, { params, body }, ctx) => {
    const issue = requireIssue(site, params.issueIdOrKey);
    if (body.name !== undefined || body.key !== undefined)
      throw jiraError(400, [
        "'accountId' must be the only user identifying query parameter in GDPR strict mode.",
      ]);
    if (!("accountId" in body) || body.accountId === undefined)
      throw jiraError(400, [], { accountId: "The accountId of the user to assign must be specified." });
    const project = site.get("projects", issue.projectId)!;
    const target = body.accountId === null ? null : { accountId: body.accountId };
    const resolved = resolveUser(site, target, "assignee", project);
    if (!resolved.ok) throw jiraError(400, [], { assignee: resolved.error });
    if (resolved.value !== issue.assigneeId)
      putIssue(site, issue, { ...issue, assigneeId: resolved.value, updated: site.now() }, ctx.accountId);
    return undefined;
  },
});

export const ISSUE_WRITE_OPERATIONS: readonly Operation[] = [createIssue, editIssue, assignIssue];
