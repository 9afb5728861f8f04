/**
 * Confluence record lookups and inserts shared by operations and fixtures: id allocation for pages and
 * labels, finding spaces by key, and the page tree.
 */
import type { Site } from "../site.ts";
import type { Page, PageLabel, Space } from "./model.ts";

/** Confluence ids are large numeric strings; pages and spaces draw from separate counters. */
export const PAGE_ID_START = 3_014_657;
export const SPACE_ID_START = 98_305;

export function insertPage(site: Site, fields: Omit<Page, "id" | "position">): Page {
  const id = String(site.nextId("page", PAGE_ID_START));
  const position = nextPosition(site, fields.spaceId, fields.parentId);
  const page: Page = { id, position, ...fields };
  site.put("pages", id, page);
  return page;
}

export function findSpaceByKey(site: Site, key: string): Space | undefined {
  for (const space of site.values("spaces")) if (space.key === key) return space;
  return undefined;
}

export function siblingsOf(site: Site, spaceId: string, parentId: string | null): Page[] {
  return [...site.values("pages")].filter((p) => p.spaceId === spaceId && p.parentId === parentId);
}

/**
 * The position a page added under `parentId` takes: after every sibling (a purge can leave gaps, so this
 * is one past the highest, not the count).
 */
export function nextPosition(site: Site, spaceId: string, parentId: string | null): number {
  let next = 0;
  for (const page of siblingsOf(site, spaceId, parentId)) next = Math.max(next, page.position + 1);
  return next;
}

export function childrenOf(site: Site, pageId: string): Page[] {
  return [...site.values("pages")].filter((p) => p.parentId === pageId && p.status !== "trashed");
}

export function labelsOf(site: Site, pageId: string): PageLabel[] {
  return [...site.values("pageLabels")].filter((l) => l.pageId === pageId);
}

/** The key of a page's label in the `pageLabels` table. */
export function labelKey(pageId: string, prefix: PageLabel["prefix"], name: string): string {
  return `${pageId}:${prefix}:${name}`;
}

/** Attaches a label to a page (a no-op if it is already there), allocating the label id on first use. */
export function attachLabel(
  site: Site,
  pageId: string,
  prefix: PageLabel["prefix"],
  name: string,
): PageLabel {
  const key = labelKey(pageId, prefix, name);
  const existing = site.get("pageLabels", key);
  if (existing) return existing;
  let labelId = site.get("labelIds", `${prefix}:${name}`);
  if (labelId === undefined) {
    labelId = String(site.nextId("label", 1_245_185));
    site.put("labelIds", `${prefix}:${name}`, labelId);
  }
  const label: PageLabel = { pageId, labelId, prefix, name };
  site.put("pageLabels", key, label);
  return label;
}
