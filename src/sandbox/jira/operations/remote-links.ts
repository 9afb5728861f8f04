/** getRemoteIssueLinks, createOrUpdateRemoteIssueLink. */
import type { Operation } from "../../define-operation.ts";

export const REMOTE_LINK_OPERATIONS: readonly Operation[] = [];
