/**
 * The web URLs of a Confluence page, in every canonical form Confluence resolves: the `webui` link
 * with the title slug the API returns (or a raw-dash slug, or none), the tiny link and viewpage.action.
 */
import { tinyId } from "../../sandbox/confluence/present.ts";

export function pageUrls(wikiBase: string, spaceKey: string, pageId: string, title: string): string[] {
  const dashed = title.trim().replace(/\s+/g, "-");
  const page = `${wikiBase}/spaces/${spaceKey}/pages/${pageId}`;
  return [
    ...new Set([
      `${page}/${encodeURIComponent(dashed)}`,
      `${page}/${dashed}`,
      page,
      `${wikiBase}/x/${tinyId(pageId)}`,
      `${wikiBase}/pages/viewpage.action?pageId=${pageId}`,
    ]),
  ];
}
