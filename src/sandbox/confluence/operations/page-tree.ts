/** getChildPages, getPageDirectChildren. */
import type { Operation } from "../../define-operation.ts";

export const PAGE_TREE_OPERATIONS: readonly Operation[] = [];
