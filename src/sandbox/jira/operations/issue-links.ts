/**
 * Jira issue links: getIssueLinkTypes and linkIssues. A link joins two issues with a type; for
 * "Blocks", the request's inwardIssue blocks its outwardIssue, so getIssue on the inwardIssue lists the
 * other under `outwardIssue` ("blocks") and vice versa. Duplicate requests create nothing new.
 */
import { z } from "zod";
import { jiraError } from "../../api-error.ts";
import { defineOperation, type Operation } from "../../define-operation.ts";
import type { Site } from "../../site.ts";
import { ISSUE_LINK_TYPES } from "../catalog.ts";
import { insertComment, requireCommentBody } from "../comment-body.ts";
import { linkItem, recordChange } from "../history.ts";
import type { Issue } from "../model.ts";
import { findIssue } from "../store.ts";
import { ISSUE_NOT_FOUND } from "./issues.ts";

export const SELF_LINK = "You cannot link an issue to itself.";

type LinkType = (typeof ISSUE_LINK_TYPES)[number];

export function presentIssueLinkType(base: string, type: LinkType) {
  return {
    id: type.id,
    name: type.name,
    inward: type.inward,
    outward: type.outward,
    self: `${base}/rest/api/3/issueLinkType/${type.id}`,
  };
}

export const getIssueLinkTypes = defineOperation({
  operationId: "getIssueLinkTypes",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/issueLinkType",
  summary: "Lists the issue link types (e.g. Blocks: 'blocks' / 'is blocked by') with their names and ids.",
  effect: "read",
  status: 200,
  params: z.object({}),
  handler: (_site, _input, ctx) => ({
    issueLinkTypes: ISSUE_LINK_TYPES.map((t) => presentIssueLinkType(ctx.baseUrl, t)),
  }),
});

const issueRef = (side: string) =>
  z
    .looseObject({
      key: z.string().optional().describe("The issue key, e.g. ENG-12."),
      id: z.string().optional().describe("The numeric issue id (instead of key)."),
    })
    .describe(side);

function requireLinkType(ref: { id?: string; name?: string }): LinkType {
  const type =
    ref.id !== undefined
      ? ISSUE_LINK_TYPES.find((t) => t.id === ref.id)
      : ISSUE_LINK_TYPES.find((t) => t.name === ref.name);
  if (type) return type;
  if (ref.id !== undefined) throw jiraError(404, [`No issue link type with id '${ref.id}' found.`]);
  throw jiraError(404, [`No issue link type with name '${ref.name ?? "null"}' found.`]);
}

function requireLinkedIssue(site: Site, ref: { id?: string; key?: string }): Issue {
  const idOrKey = ref.id ?? ref.key;
  const issue = idOrKey === undefined ? undefined : findIssue(site, idOrKey);
  if (!issue) throw jiraError(404, [ISSUE_NOT_FOUND]);
  return issue;
}

export const linkIssues = defineOperation({
  operationId: "linkIssues",
  api: "jira",
  method: "POST",
  path: "/rest/api/3/issueLink",
  summary:
    "Links two issues with a link type (by name or id, from getIssueLinkTypes), optionally adding a comment. Answers 201 with no body.",
  effect: "write",
  status: 201,
  params: z.object({}),
  body: z.looseObject({
    type: z
      .looseObject({
        name: z.string().optional().describe("Link type name, exactly as listed, e.g. 'Blocks', 'Relates'."),
        id: z.string().optional().describe("Link type id (instead of name), e.g. '10000'."),
      })
      .describe("The link type, by name or id."),
    inwardIssue: issueRef(
      "The issue that takes the type's outward verb: for Blocks, the blocking issue (it 'blocks' outwardIssue).",
    ),
    outwardIssue: issueRef(
      "The issue that takes the type's inward verb: for Blocks, the blocked issue (it 'is blocked by' inwardIssue).",
    ),
    comment: z
      .looseObject({
        body: z.unknown().describe("The comment as an ADF document."),
        visibility: z.looseObject({}).optional(),
      })
      .nullish()
      .describe("An optional comment, added to the inwardIssue (null means none)."),
  }),
  handler: (site, { body }, ctx) => {
    const type = requireLinkType(body.type);
    const inward = requireLinkedIssue(site, body.inwardIssue);
    const outward = requireLinkedIssue(site, body.outwardIssue);
    if (inward.id === outward.id) throw jiraError(400, [SELF_LINK]);
    const commentBody = body.comment ? requireCommentBody(body.comment.body) : undefined;
    const exists = [...site.values("issueLinks")].some(
      (l) => l.typeId === type.id && l.inwardIssueId === inward.id && l.outwardIssueId === outward.id,
    );
    if (!exists) {
      const id = String(site.nextId("issueLink", 10100));
      site.put("issueLinks", id, {
        id,
        typeId: type.id,
        inwardIssueId: inward.id,
        outwardIssueId: outward.id,
      });
      // Each issue's history says what it now links to, as that issue reads the link.
      const reads = [
        [inward, outward, type.outward],
        [outward, inward, type.inward],
      ] as const;
      for (const [issue, other, phrase] of reads) {
        site.put("issues", issue.id, { ...issue, updated: site.now() });
        recordChange(site, issue.id, ctx.accountId, [linkItem(other, `This issue ${phrase}`)]);
      }
    }
    if (commentBody) insertComment(site, inward, ctx.accountId, commentBody);
    return undefined;
  },
});

export const ISSUE_LINK_OPERATIONS: readonly Operation[] = [getIssueLinkTypes, linkIssues];
