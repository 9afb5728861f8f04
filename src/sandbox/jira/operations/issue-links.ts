/** getIssueLinkTypes, linkIssues. */
import type { Operation } from "../../define-operation.ts";

export const ISSUE_LINK_OPERATIONS: readonly Operation[] = [];
