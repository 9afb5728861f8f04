/**
 * Finding Confluence records for operations, with the answers Confluence gives when they are missing:
 * v2 says `404 Not Found` (no detail), v1 says `No content found with id: ContentId{id=...}`.
 */
import { confluenceError, confluenceV1Error } from "../api-error.ts";
import type { Site } from "../site.ts";
import type { Page, PageStatus, Space } from "./model.ts";

/** The title of Confluence v2's 404 body, as live sites answer it. */
export const NOT_FOUND = "Not Found";

/** Statuses a page read sees unless the caller asks for others. */
export const VISIBLE_STATUSES: readonly PageStatus[] = ["current", "archived", "draft"];

export function requireSpace(site: Site, id: string): Space {
  const space = site.get("spaces", id);
  if (!space) throw confluenceError(404, NOT_FOUND);
  return space;
}

/** A page the caller can see: not trashed unless `statuses` names trashed. */
export function requirePage(site: Site, id: string, statuses: readonly string[] = VISIBLE_STATUSES): Page {
  const page = site.get("pages", id);
  if (!page || !statuses.includes(page.status)) throw confluenceError(404, NOT_FOUND);
  return page;
}

/** A page for the v1 API (any status except trashed). */
export function requireContent(site: Site, id: string): Page {
  const page = site.get("pages", id);
  if (!page || page.status === "trashed")
    throw confluenceV1Error(404, `No content found with id: ContentId{id=${id}}`);
  return page;
}

export function spaceKeyOf(site: Site, spaceId: string): string {
  return site.get("spaces", spaceId)?.key ?? spaceId;
}
