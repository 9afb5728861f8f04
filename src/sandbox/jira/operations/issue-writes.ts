/** createIssue, editIssue, assignIssue. */
import type { Operation } from "../../define-operation.ts";

export const ISSUE_WRITE_OPERATIONS: readonly Operation[] = [];
