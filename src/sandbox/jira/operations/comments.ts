/**
 * Jira issue comments: addComment (ADF body, authored by the caller, bumps the issue's `updated`),
 * getComments (PageOfComments, ordered by creation), getComment (which jira.js calls after a v2 add) and
 * updateComment (a new body; the caller becomes its `updateAuthor`, the issue's `updated` moves).
 */
import { z } from "zod";
import { jiraError } from "../../api-error.ts";
import { defineOperation, type Operation } from "../../define-operation.ts";
import { lookupId, qBool, qInt32 } from "../../params.ts";
import type { Site } from "../../site.ts";
import { insertComment, renderCommentBody, requireCommentBody } from "../comment-body.ts";
import type { Comment } from "../model.ts";
import { presentComment } from "../present.ts";
import { requireIssue } from "./issues.ts";

const issueIdOrKey = z.string().min(1).describe("The issue key (e.g. ENG-12) or numeric id.");
const expand = z.string().optional().describe("'renderedBody' adds the body rendered as HTML.");

/** The body of addComment and updateComment. */
const commentBody = z.looseObject({
  body: z
    .unknown()
    .describe(
      'The comment as an ADF document, e.g. {"type":"doc","version":1,"content":[{"type":"paragraph","content":[{"type":"text","text":"Done."}]}]}.',
    ),
  visibility: z
    .looseObject({
      type: z.enum(["group", "role"]).optional(),
      value: z.string().optional(),
      identifier: z.string().optional(),
    })
    .optional()
    .describe("Restricts the comment to a group or role (accepted; every comment here is visible to all)."),
  properties: z.array(z.unknown()).optional().describe("Comment properties (accepted, not stored)."),
});

/** A Comment bean, with the body rendered as HTML when `renderedBody` is expanded. */
function present(site: Site, base: string, comment: Comment, expandList: string | undefined) {
  const bean = presentComment(site, base, comment);
  if (expandList?.split(",").some((e) => e.trim() === "renderedBody"))
    bean.renderedBody = renderCommentBody(comment.body);
  return bean;
}

export const addComment = defineOperation({
  operationId: "addComment",
  api: "jira",
  method: "POST",
  path: "/rest/api/3/issue/{issueIdOrKey}/comment",
  summary: "Adds a comment to an issue. The body must be an Atlassian Document Format (ADF) document.",
  effect: "write",
  status: 201,
  params: z.object({ issueIdOrKey, expand }),
  body: commentBody,
  handler: (site, { params, body }, ctx) => {
    const issue = requireIssue(site, params.issueIdOrKey);
    const doc = requireCommentBody(body.body);
    const comment = insertComment(site, issue, ctx.accountId, doc);
    return present(site, ctx.baseUrl, comment, params.expand);
  },
});

export const getComments = defineOperation({
  operationId: "getComments",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/issue/{issueIdOrKey}/comment",
  summary: "Returns an issue's comments, oldest first unless ordered by -created, a page at a time.",
  effect: "read",
  status: 200,
  params: z.object({
    issueIdOrKey,
    startAt: qInt32()
      .refine((n) => n >= 0, "must not be negative")
      .optional()
      .describe("Index of the first comment to return (default 0)."),
    maxResults: qInt32()
      .refine((n) => n >= 0, "must not be negative")
      .optional()
      .describe("Comments per page (default 100)."),
    orderBy: z
      .enum(["created", "-created", "+created"])
      .optional()
      .describe("'created' or '+created' for oldest first, '-created' for newest first."),
    expand,
  }),
  handler: (site, { params }, ctx) => {
    const issue = requireIssue(site, params.issueIdOrKey);
    const comments = [...site.values("comments")]
      .filter((c) => c.issueId === issue.id)
      .sort((a, b) => a.created - b.created || Number(a.id) - Number(b.id));
    if (params.orderBy === "-created") comments.reverse();
    const startAt = params.startAt ?? 0;
    const maxResults = params.maxResults ?? 100;
    return {
      startAt,
      maxResults,
      total: comments.length,
      comments: comments
        .slice(startAt, startAt + maxResults)
        .map((c) => present(site, ctx.baseUrl, c, params.expand)),
    };
  },
});

export const getComment = defineOperation({
  operationId: "getComment",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/issue/{issueIdOrKey}/comment/{id}",
  summary: "Returns one comment of an issue by its id.",
  effect: "read",
  status: 200,
  params: z.object({
    issueIdOrKey,
    id: lookupId().describe("The comment id, from getComments or addComment."),
    expand,
  }),
  handler: (site, { params }, ctx) => {
    return present(site, ctx.baseUrl, requireComment(site, params.issueIdOrKey, params.id), params.expand);
  },
});

/** A comment of the issue by id, or Jira's 404. */
function requireComment(site: Site, issueIdOrKey: string, id: string): Comment {
  const issue = requireIssue(site, issueIdOrKey);
  const comment = site.get("comments", id);
  if (!comment || comment.issueId !== issue.id)
    throw jiraError(404, [`Can not find a comment for the id: ${id}.`]);
  return comment;
}

export const updateComment = defineOperation({
  operationId: "updateComment",
  api: "jira",
  method: "PUT",
  path: "/rest/api/3/issue/{issueIdOrKey}/comment/{id}",
  summary:
    "Replaces a comment's body (an Atlassian Document Format document); the caller becomes its updateAuthor.",
  effect: "write",
  status: 200,
  params: z.object({
    issueIdOrKey,
    id: lookupId().describe("The comment id, from getComments or addComment."),
    notifyUsers: qBool().optional().describe("Whether watchers are emailed (default true)."),
    overrideEditableFlag: qBool().optional(),
    expand,
  }),
  body: commentBody,
  handler: (site, { params, body }, ctx) => {
    const comment = requireComment(site, params.issueIdOrKey, params.id);
    const doc = requireCommentBody(body.body);
    const now = site.now();
    // The last editor other than the author is kept; the author's own edit leaves the field absent.
    const { updateAuthorId: _previous, ...rest } = comment;
    const updated: Comment = {
      ...rest,
      body: doc,
      updated: now,
      ...(ctx.accountId === comment.authorId ? {} : { updateAuthorId: ctx.accountId }),
    };
    site.put("comments", comment.id, updated);
    // Editing a comment is a change to the issue, as adding one is.
    site.put("issues", comment.issueId, { ...site.get("issues", comment.issueId)!, updated: now });
    return present(site, ctx.baseUrl, updated, params.expand);
  },
});

export const COMMENT_OPERATIONS: readonly Operation[] = [addComment, getComments, getComment, updateComment];
