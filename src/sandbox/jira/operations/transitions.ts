/**
 * Jira workflow operations: getTransitions (what the issue's current status allows, with the
 * resolution field of the Done screen under `expand=transitions.fields`) and doTransition (moves the
 * issue, sets or clears the resolution, accepts a resolution and comments only where the screen has them).
 */
import { z } from "zod";
import { jiraError } from "../../api-error.ts";
import { defineOperation, type Operation } from "../../define-operation.ts";
import { qBool } from "../../params.ts";
import { mergeFieldUpdates } from "../field-updates.ts";
import { putIssue } from "../history.ts";
import { resolveResolution } from "../issue-input.ts";
import { issueUpdateDetailsSchema, transitionIdOf } from "../issue-update-schema.ts";
import { applyTransition, availableTransition, invalidTransitionMessage } from "../workflow.ts";
import { addComments } from "./issue-writes.ts";
import { requireIssue } from "./issues.ts";
import { presentTransitions } from "./transitions-present.ts";

const issueIdOrKey = z.string().min(1).describe("The issue key (e.g. ENG-12) or numeric id.");

export const getTransitions = defineOperation({
  operationId: "getTransitions",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/issue/{issueIdOrKey}/transitions",
  summary:
    "Lists the workflow transitions available from the issue's current status (id, name, target status). Use a transition id with doTransition.",
  effect: "read",
  status: 200,
  params: z.object({
    issueIdOrKey,
    expand: z
      .string()
      .optional()
      .describe("'transitions.fields' adds the fields each transition's screen accepts (e.g. resolution)."),
    transitionId: z
      .union([z.string(), z.number()])
      .optional()
      .describe("Only this transition (an empty list when it is not available)."),
    skipRemoteOnlyCondition: qBool().optional(),
    includeUnavailableTransitions: qBool().optional(),
    sortByOpsBarAndStatus: qBool().optional(),
  }),
  handler: (site, { params }, ctx) => {
    const issue = requireIssue(site, params.issueIdOrKey);
    const withFields = (params.expand ?? "").split(",").some((e) => e.trim() === "transitions.fields");
    const wanted = params.transitionId === undefined ? undefined : String(params.transitionId);
    const transitions = presentTransitions(ctx.baseUrl, issue, withFields).filter(
      (t) => wanted === undefined || t.id === wanted,
    );
    return { expand: "transitions", transitions };
  },
});

export const doTransition = defineOperation({
  operationId: "doTransition",
  api: "jira",
  method: "POST",
  path: "/rest/api/3/issue/{issueIdOrKey}/transitions",
  summary:
    'Moves an issue to another status by transition id (from getTransitions), e.g. {"transition":{"id":"21"}}. The Done transition also takes fields.resolution ({"name":"Done"}) and update.comment.',
  effect: "write",
  status: 204,
  params: z.object({ issueIdOrKey }),
  body: issueUpdateDetailsSchema,
  handler: (site, { params, body }, ctx) => {
    const issue = requireIssue(site, params.issueIdOrKey);
    const id = transitionIdOf(body);
    if (id === undefined || id === "") throw jiraError(400, ["Missing 'transition' identifier"]);
    const transition = availableTransition(issue, id);
    if (!transition) throw jiraError(400, [invalidTransitionMessage(id)]);
    const merged = mergeFieldUpdates(body, {
      settable: new Set(transition.resolutionScreen ? ["resolution"] : []),
      currentLabels: issue.labels,
      comments: transition.resolutionScreen,
    });
    let resolutionId: string | undefined;
    if (merged.values.resolution !== undefined && merged.values.resolution !== null) {
      const resolved = resolveResolution(merged.values.resolution);
      if (resolved.ok) resolutionId = resolved.value;
      else merged.errors.resolution = resolved.error;
    }
    if (Object.keys(merged.errors).length > 0) throw jiraError(400, [], merged.errors);
    putIssue(site, issue, applyTransition(issue, transition, resolutionId, site.now()), ctx.accountId);
    addComments(site, issue.id, ctx.accountId, merged.comments);
    return undefined;
  },
});

export const TRANSITION_OPERATIONS: readonly Operation[] = [getTransitions, doTransition];
