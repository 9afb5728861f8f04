/**
 * Markdown → Confluence storage format (XHTML), the way Atlassian's MCP servers take page bodies: the
 * Markdown is read into ADF (markdown-to-adf.ts) and written out by the site's own ADF → storage writer,
 * so both conversions share one Markdown reader and fenced code becomes Confluence's code macro.
 */
import { adfToStorage } from "../../../sandbox/adf/adf-to-storage.ts";
import { markdownToAdf } from "./markdown-to-adf.ts";

export function markdownToStorage(markdown: string): string {
  return adfToStorage(markdownToAdf(markdown));
}
