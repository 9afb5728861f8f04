/** getCreateIssueMetaIssueTypes, getCreateIssueMetaIssueTypeId. */
import type { Operation } from "../../define-operation.ts";

export const CREATE_META_OPERATIONS: readonly Operation[] = [];
