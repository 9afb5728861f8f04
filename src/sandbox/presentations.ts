/**
 * The registry of presentations: the other API surfaces the REST facade serves for the same operations
 * (Jira REST v2 for every v3 operation; Confluence v1 content and space reads for the v2 page and space
 * operations). They are REST-only: tools and MCP offer the operations themselves.
 */
import { CONTENT_PRESENTATIONS } from "./confluence/v1/content.ts";
import { searchContentByCQL } from "./confluence/v1/content-search.ts";
import { getHistoryForContent } from "./confluence/v1/history.ts";
import { SPACE_PRESENTATIONS } from "./confluence/v1/spaces.ts";
import { restV2Presentations } from "./jira/rest-v2.ts";
import { OPERATIONS } from "./operations.ts";
import type { Presentation } from "./presentation.ts";

export const PRESENTATIONS: readonly Presentation[] = [
  ...restV2Presentations(OPERATIONS),
  ...CONTENT_PRESENTATIONS,
  searchContentByCQL,
  getHistoryForContent,
  ...SPACE_PRESENTATIONS,
];
