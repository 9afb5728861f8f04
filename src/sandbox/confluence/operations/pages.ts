/** getPages, getPagesInSpace, getPageById, createPage, updatePage. */
import type { Operation } from "../../define-operation.ts";

export const PAGE_OPERATIONS: readonly Operation[] = [];
