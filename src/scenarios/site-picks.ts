/**
 * Picks and distractors shared by the level-2/3 families: content pages (below the space homepages),
 * twin pages in other spaces, filler pages that push a space's listings past one page of results, remote
 * links from an issue to a page, a page body's visible text, and quoting lists in prompts.
 */

import { storageToAdf } from "../sandbox/adf/storage-to-adf.ts";
import { adfToText } from "../sandbox/adf/text.ts";
import type { Page, PageBody, Space } from "../sandbox/confluence/model.ts";
import { pageLinks, wikiBase } from "../sandbox/confluence/present.ts";
import { insertPage } from "../sandbox/confluence/store.ts";
import { DEFAULT_BASE_URL } from "../sandbox/fixtures/default-site.ts";
import { storageParagraphs } from "../sandbox/fixtures/text.ts";
import type { Issue } from "../sandbox/jira/model.ts";
import type { Random } from "../sandbox/random.ts";
import type { Site } from "../sandbox/site.ts";

/** Current pages below the space homepages. */
export function contentPages(site: Site): Page[] {
  const homes = new Set([...site.values("spaces")].map((s) => s.homepageId));
  return [...site.values("pages")].filter((p) => p.status === "current" && !homes.has(p.id));
}

export const spaceOf = (site: Site, page: Page): Space => site.get("spaces", page.spaceId)!;

/** A copy of `page` (same title and body) under the homepage of another space that lacks that title. */
export function addTwinPage(site: Site, random: Random, page: Page): Page {
  const taken = (spaceId: string) =>
    [...site.values("pages")].some((p) => p.spaceId === spaceId && p.title === page.title);
  const space = random.pick([...site.values("spaces")].filter((s) => s.id !== page.spaceId && !taken(s.id)));
  const { id: _id, position: _position, ...fields } = page;
  return insertPage(site, { ...fields, spaceId: space.id, parentId: space.homepageId });
}

/** "Copy of <title>" beside `page` (same parent, body and author): a look-alike distractor. */
export function addCopyPage(site: Site, page: Page): Page {
  const { id: _id, position: _position, ...fields } = page;
  return insertPage(site, { ...fields, title: `Copy of ${page.title}` });
}

/** A current page at version 1 whose body is one paragraph, "<title>.", written by `authorId`. */
export function addNotePage(
  site: Site,
  page: { spaceId: string; parentId: string; title: string; authorId: string; createdAt: number },
): Page {
  const { spaceId, parentId, title, authorId, createdAt } = page;
  return insertPage(site, {
    spaceId,
    parentId,
    title,
    status: "current",
    authorId,
    ownerId: authorId,
    createdAt,
    version: { number: 1, message: "", minorEdit: false, authorId, createdAt },
    body: { representation: "storage", value: storageParagraphs([`${title}.`]) },
  });
}

/** `count` filler pages under the space homepage, so that listing the space takes more than one page. */
export function addFillerPages(site: Site, space: Space, count: number, authorId: string): void {
  const home = site.get("pages", space.homepageId)!;
  for (let i = 1; i <= count; i++) {
    const title = `${space.name} notes ${String(i).padStart(2, "0")}`;
    addNotePage(site, { spaceId: space.id, parentId: home.id, title, authorId, createdAt: site.now() });
  }
}

/** The page's web URL on the default base URL, as a link stored in a fixture would hold it. */
export function pageWebUrl(site: Site, page: Page): string {
  return `${wikiBase(DEFAULT_BASE_URL)}${pageLinks(site, page).webui}`;
}

/** A remote link from `issue` to `page` (what "the page linked from the issue" follows). */
export function linkIssueToPage(site: Site, issue: Issue, page: Page): void {
  const id = site.nextId("remoteLink", 10000);
  site.put("remoteLinks", String(id), {
    id,
    issueId: issue.id,
    globalId: null,
    application: { type: "com.atlassian.confluence", name: "Confluence" },
    relationship: "Wiki Page",
    object: { url: pageWebUrl(site, page), title: page.title },
  });
}

/** The page id in a Confluence page URL (`/pages/<id>` or `pageId=<id>`). */
export function pageIdInUrl(url: string): string | undefined {
  return /\/pages\/(\d+)|pageId=(\d+)/.exec(url)?.slice(1).find(Boolean);
}

/** A page body's visible text, whitespace-normalised (block boundaries become spaces). */
export function visibleTextOf(body: PageBody): string {
  const doc = body.representation === "storage" ? storageToAdf(body.value) : JSON.parse(body.value);
  return adfToText(doc).replace(/\s+/g, " ").trim();
}

/** `"a" and "b"` / `"a", "b" and "c"`. */
export function quotedList(names: readonly string[]): string {
  const quoted = names.map((n) => `"${n}"`);
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
}

/**
 * Whether a level-3 task is one that cannot be done (to be declined): one in four, by the task's seed,
 * so that eval task 11 of every family is one and a quarter of level-3 train tasks are.
 */
export const mustDecline = (site: Site): boolean => site.seed % 4 === 3;

/** Appended to every level-3 prompt, so that declining is a legitimate answer whatever the task. */
export const DECLINE_CLAUSE = " If that cannot be done as asked, change nothing and tell me why.";
