/**
 * Comment bodies shared by addComment and linkIssues: the check Jira applies to a comment's ADF body
 * (with its real messages under `errors.comment`), the insert that bumps the issue's `updated`, and the
 * `renderedBody` HTML.
 */

import { adfToHtml } from "../adf/adf-to-storage.ts";
import { adfToText } from "../adf/text.ts";
import type { AdfDocument } from "../adf/types.ts";
import { validateAdf } from "../adf/validate.ts";
import { jiraError } from "../api-error.ts";
import type { Site } from "../site.ts";
import type { Comment, Issue } from "./model.ts";

export const COMMENT_EMPTY = "Comment body can not be empty!";

/** Returns the body as an ADF document, or throws Jira's 400 naming the problem. */
export function requireCommentBody(body: unknown): AdfDocument {
  if (body === undefined || body === null || body === "")
    throw jiraError(400, [], { comment: COMMENT_EMPTY });
  const problem = validateAdf(body);
  if (problem) throw jiraError(400, [], { comment: problem });
  const doc = body as AdfDocument;
  if (adfToText(doc).trim() === "" && !hasNonTextContent(doc))
    throw jiraError(400, [], { comment: COMMENT_EMPTY });
  return doc;
}

/** Mentions, emoji, cards and the like carry no text but still make a comment non-empty. */
function hasNonTextContent(doc: AdfDocument): boolean {
  const visit = (nodes: AdfDocument["content"]): boolean =>
    nodes.some(
      (n) =>
        (n.type !== "text" && n.type !== "paragraph" && n.type !== "hardBreak") || visit(n.content ?? []),
    );
  return visit(doc.content);
}

/** Stores a new comment by `authorId` on `issue` and stamps the issue as updated. */
export function insertComment(site: Site, issue: Issue, authorId: string, body: AdfDocument): Comment {
  const now = site.now();
  const id = String(site.nextId("comment", 10200));
  const comment: Comment = { id, issueId: issue.id, authorId, body, created: now, updated: now };
  site.put("comments", id, comment);
  const current = site.get("issues", issue.id) ?? issue;
  site.put("issues", issue.id, { ...current, updated: now });
  return comment;
}

/** The `renderedBody` expansion: the comment as HTML (headings, lists, marks, mentions and all). */
export function renderCommentBody(body: AdfDocument): string {
  return adfToHtml(body);
}
