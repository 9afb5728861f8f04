/**
 * The checks Confluence makes before a page is created or changed: title present and short enough,
 * title unique among the space's published pages (the real duplicate-title 400), a parent that exists
 * in the same space and is not the page itself or one of its descendants.
 */
import { confluenceError } from "../api-error.ts";
import type { Site } from "../site.ts";
import type { Page, Space } from "./model.ts";

export const DUPLICATE_TITLE =
  "A page with this title already exists: A page already exists with the same TITLE in this space";

export const MAX_TITLE_LENGTH = 255;

/** The title to store; a published page needs a non-empty one. */
export function checkTitle(title: string | undefined, status: "current" | "draft"): string {
  const trimmed = (title ?? "").trim();
  if (status !== "draft" && trimmed === "")
    throw confluenceError(
      400,
      "Title is required when the page status is not 'draft'.",
      "INVALID_REQUEST_PARAMETER",
    );
  if (trimmed.length > MAX_TITLE_LENGTH)
    throw confluenceError(
      400,
      `Title cannot be longer than ${MAX_TITLE_LENGTH} characters.`,
      "INVALID_REQUEST_PARAMETER",
    );
  return trimmed;
}

/**
 * Titles are unique per space among current, archived and trashed pages, ignoring case: a page in the
 * trash keeps its title until it is purged, as in Confluence. Drafts do not reserve one.
 */
export function checkTitleFree(site: Site, spaceId: string, title: string, exceptId?: string): void {
  const wanted = title.toLowerCase();
  for (const page of site.values("pages")) {
    if (page.spaceId !== spaceId || page.id === exceptId) continue;
    if (page.status === "draft") continue;
    if (page.title.toLowerCase() === wanted) throw confluenceError(400, DUPLICATE_TITLE);
  }
}

/** A page that can take children in `space`: exists, is published (current or archived), same space. */
export function requireParent(site: Site, parentId: string, space: Space): Page {
  const parent = site.get("pages", parentId);
  if (!parent || (parent.status !== "current" && parent.status !== "archived"))
    throw confluenceError(404, `Parent page not found: there is no page with id ${parentId}.`);
  if (parent.spaceId !== space.id)
    throw confluenceError(
      404,
      `Parent page ${parentId} was not found in space ${space.key}; a page's parent must be in the same space.`,
    );
  return parent;
}

/** Moving `page` under `parent` must not make it its own ancestor. */
export function checkNoCycle(site: Site, page: Page, parent: Page): void {
  for (let p: Page | undefined = parent; p; p = p.parentId ? site.get("pages", p.parentId) : undefined) {
    if (p.id === page.id)
      throw confluenceError(
        400,
        "A page cannot be moved under itself or one of its descendants.",
        "INVALID_REQUEST_PARAMETER",
      );
  }
}
