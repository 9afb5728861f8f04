/**
 * Matchers of cross-product-page-link: the new page's web URL (in every form Confluence resolves), a
 * published status, and body text that mentions a value.
 */
import type { Matcher } from "../../reward/matchers.ts";
import { tinyId, wikiBase } from "../../sandbox/confluence/present.ts";
import { escapeXml } from "../../sandbox/fixtures/text.ts";
import { DEFAULT_BASE_URL } from "../episode.ts";

/**
 * A page's web URL under one of `bases` (`_links.base` values, default the episode's default base URL),
 * in any form Confluence resolves: `/spaces/<KEY>/pages/<id>` with any or no title slug, the tiny link
 * `/x/<code>` and `/pages/viewpage.action?pageId=<id>`.
 */
export function pageUrl(
  spaceKey: string,
  pageId: string,
  bases: readonly string[] = [wikiBase(DEFAULT_BASE_URL)],
): Matcher {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const forms = bases.flatMap((base) => [
    new RegExp(`^${esc(base)}/spaces/${esc(spaceKey)}/pages/${pageId}(/[^/?#]*)?/?$`, "i"),
    new RegExp(`^${esc(base)}/pages/viewpage\\.action\\?pageId=${pageId}$`, "i"),
  ]);
  const tiny = bases.map((base) => `${base}/x/${tinyId(pageId)}`);
  return {
    describe: `is the new page's web URL (${bases[0]}/spaces/${spaceKey}/pages/${pageId}/...)`,
    test: (v) => typeof v === "string" && (forms.some((r) => r.test(v.trim())) || tiny.includes(v.trim())),
  };
}

/** status "current", or left out (Confluence's default). */
export const published: Matcher = {
  describe: 'is "current" (or absent: the default)',
  test: (v) => v === undefined || v === "current",
};

/** Body text containing `text`, raw or XML-escaped (storage bodies escape &, < and >). */
export function mentionsText(text: string): Matcher {
  const needles = [text, escapeXml(text)].map((t) => t.toLowerCase());
  return {
    describe: `mentions ${JSON.stringify(text)}`,
    test: (v) => typeof v === "string" && needles.some((n) => v.toLowerCase().includes(n)),
  };
}
