/** JQL search (enhanced /search/jql, GET and POST). */
import type { Operation } from "../../define-operation.ts";

export const SEARCH_OPERATIONS: readonly Operation[] = [];
