/** addComment, getComments. */
import type { Operation } from "../../define-operation.ts";

export const COMMENT_OPERATIONS: readonly Operation[] = [];
