/**
 * The registry of every simulated operation. REST routes, agent tools and MCP tools are all generated
 * from this list; adding an operation to its group is what exposes it everywhere.
 */

import { LABEL_OPERATIONS } from "./confluence/operations/labels.ts";
import { PAGE_TREE_OPERATIONS } from "./confluence/operations/page-tree.ts";
import { PAGE_OPERATIONS } from "./confluence/operations/pages.ts";
import { CQL_SEARCH_OPERATIONS } from "./confluence/operations/search.ts";
import { SEARCH_USER_OPERATIONS } from "./confluence/operations/search-user.ts";
import { SPACE_OPERATIONS } from "./confluence/operations/spaces.ts";
import type { Operation } from "./define-operation.ts";
import { CHANGELOG_OPERATIONS } from "./jira/operations/changelog.ts";
import { COMMENT_OPERATIONS } from "./jira/operations/comments.ts";
import { CREATE_META_OPERATIONS } from "./jira/operations/create-meta.ts";
import { FIELD_LIST_OPERATIONS } from "./jira/operations/field-list.ts";
import { ISSUE_LINK_OPERATIONS } from "./jira/operations/issue-links.ts";
import { ISSUE_WRITE_OPERATIONS } from "./jira/operations/issue-writes.ts";
import { getIssue } from "./jira/operations/issues.ts";
import { PROJECT_OPERATIONS } from "./jira/operations/projects.ts";
import { REMOTE_LINK_OPERATIONS } from "./jira/operations/remote-links.ts";
import { SEARCH_OPERATIONS } from "./jira/operations/search.ts";
import { SERVER_INFO_OPERATIONS } from "./jira/operations/server-info.ts";
import { SITE_LIST_OPERATIONS } from "./jira/operations/site-lists.ts";
import { TRANSITION_OPERATIONS } from "./jira/operations/transitions.ts";
import { USER_LOOKUP_OPERATIONS } from "./jira/operations/user-lookup.ts";
import { USER_OPERATIONS } from "./jira/operations/users.ts";

export const OPERATIONS: readonly Operation[] = [
  getIssue,
  ...SEARCH_OPERATIONS,
  ...ISSUE_WRITE_OPERATIONS,
  ...TRANSITION_OPERATIONS,
  ...CREATE_META_OPERATIONS,
  ...PROJECT_OPERATIONS,
  ...SITE_LIST_OPERATIONS,
  ...USER_OPERATIONS,
  ...USER_LOOKUP_OPERATIONS,
  ...SERVER_INFO_OPERATIONS,
  ...FIELD_LIST_OPERATIONS,
  ...COMMENT_OPERATIONS,
  ...CHANGELOG_OPERATIONS,
  ...ISSUE_LINK_OPERATIONS,
  ...REMOTE_LINK_OPERATIONS,
  ...SPACE_OPERATIONS,
  ...PAGE_OPERATIONS,
  ...PAGE_TREE_OPERATIONS,
  ...LABEL_OPERATIONS,
  ...CQL_SEARCH_OPERATIONS,
  ...SEARCH_USER_OPERATIONS,
];

const BY_ID = new Map(OPERATIONS.map((op) => [op.operationId, op]));

export function findOperation(operationId: string): Operation | undefined {
  return BY_ID.get(operationId);
}

const METADATA = new Map<string, Set<string>>();
for (const op of OPERATIONS)
  if (op.fieldClasses)
    METADATA.set(
      op.fieldClasses.table,
      new Set([...(METADATA.get(op.fieldClasses.table) ?? []), ...op.fieldClasses.metadata]),
    );

/** The metadata fields some write declares for records of `table` (free for an agent to choose). */
export function metadataFields(table: string): ReadonlySet<string> {
  return METADATA.get(table) ?? new Set();
}
