/**
 * Confluence v2 presenters: SpaceBulk/SpaceSingle, PageBulk/PageSingle and labels, shaped as live
 * Confluence Cloud answers them (ids as strings, ISO timestamps, relative `_links.webui` under /wiki,
 * `_links.base` on single-entity answers).
 */
import { confluenceTime } from "../clock.ts";
import type { Site } from "../site.ts";
import { type BodyFormat, renderBody } from "./bodies.ts";
import { spaceKeyOf } from "./lookup.ts";
import type { Page, PageLabel, PageVersion, Space } from "./model.ts";
import { labelsOf } from "./store.ts";

/** `${baseUrl}/wiki`, the `_links.base` of every Confluence answer. */
export function wikiBase(baseUrl: string): string {
  return `${baseUrl}/wiki`;
}

export interface SpacePresentOptions {
  descriptionFormat?: "plain" | "view" | undefined;
  includeIcon?: boolean | undefined;
}

export function presentSpace(space: Space, options: SpacePresentOptions = {}) {
  return {
    id: space.id,
    key: space.key,
    name: space.name,
    type: "global" as const,
    status: "current" as const,
    authorId: space.authorId,
    createdAt: confluenceTime(space.createdAt),
    homepageId: space.homepageId,
    ...(options.descriptionFormat ? { description: spaceDescription(space, options.descriptionFormat) } : {}),
    ...(options.includeIcon
      ? {
          icon: {
            path: `/wiki/download/attachments/${space.homepageId}/${space.key}?version=1&api=v2`,
            apiDownloadLink: `/wiki/rest/api/space/${space.key}/icon`,
          },
        }
      : {}),
    _links: { webui: `/spaces/${space.key}` },
  };
}

function spaceDescription(space: Space, format: "plain" | "view") {
  const value = format === "plain" ? space.description : `<p>${escapeHtml(space.description)}</p>`;
  return { [format]: { representation: format, value } };
}

export function presentVersion(version: PageVersion) {
  return {
    number: version.number,
    message: version.message,
    minorEdit: version.minorEdit,
    authorId: version.authorId,
    createdAt: confluenceTime(version.createdAt),
  };
}

export interface PagePresentOptions {
  bodyFormat?: BodyFormat | undefined;
  includeVersion?: boolean | undefined;
}

/** PageBulk: the page without sub-collections; `body` only when a body-format was asked for. */
export function presentPage(site: Site, page: Page, options: PagePresentOptions = {}) {
  return {
    id: page.id,
    status: page.status,
    title: page.title,
    spaceId: page.spaceId,
    ...(page.parentId ? { parentId: page.parentId, parentType: "page" as const } : {}),
    position: page.position,
    authorId: page.authorId,
    ownerId: page.ownerId,
    lastOwnerId: null,
    createdAt: confluenceTime(page.createdAt),
    ...(options.includeVersion === false ? {} : { version: presentVersion(page.version) }),
    ...(options.bodyFormat ? { body: renderBody(page.body, options.bodyFormat) } : {}),
    _links: pageLinks(site, page),
  };
}

export function pageLinks(site: Site, page: Page) {
  const slug = encodeURIComponent(page.title.trim().replace(/\s+/g, "-"));
  return {
    webui: `/spaces/${spaceKeyOf(site, page.spaceId)}/pages/${page.id}${slug ? `/${slug}` : ""}`,
    editui: `/pages/resumedraft.action?draftId=${page.id}`,
    tinyui: `/x/${tinyId(page.id)}`,
  };
}

/** Confluence's tiny-link code: the id's little-endian bytes in URL-safe base64, trailing `A`s trimmed. */
export function tinyId(id: string): string {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(BigInt(id));
  return bytes
    .toString("base64")
    .replace(/\//g, "-")
    .replace(/\+/g, "_")
    .replace(/[A=]+$/, "");
}

export interface PageSinglePresentOptions extends PagePresentOptions {
  includeLabels?: boolean | undefined;
  includeVersions?: boolean | undefined;
  includeProperties?: boolean | undefined;
  includeOperations?: boolean | undefined;
  includeLikes?: boolean | undefined;
  includeFavorited?: boolean | undefined;
}

/** PageSingle: a page with the requested `include-*` sub-collections and `_links.base`. */
export function presentPageSingle(
  site: Site,
  page: Page,
  baseUrl: string,
  options: PageSinglePresentOptions = {},
) {
  const { _links, ...bulk } = presentPage(site, page, options);
  const self = `/wiki/api/v2/pages/${page.id}`;
  return {
    ...bulk,
    ...(options.includeLabels
      ? { labels: included(labelsOf(site, page.id).map(presentLabel), `${self}/labels`) }
      : {}),
    ...(options.includeProperties ? { properties: included([], `${self}/properties`) } : {}),
    ...(options.includeOperations
      ? {
          operations: included(
            ["read", "update", "delete"].map((operation) => ({ operation, targetType: "page" })),
            `${self}/operations`,
          ),
        }
      : {}),
    ...(options.includeLikes ? { likes: included([], `${self}/likes`) } : {}),
    ...(options.includeVersions
      ? { versions: included([presentVersion(page.version)], `${self}/versions`) }
      : {}),
    ...(options.includeFavorited ? { isFavoritedByCurrentUser: false } : {}),
    _links: { ..._links, base: wikiBase(baseUrl) },
  };
}

/** A v2 Label. */
export function presentLabel(label: PageLabel) {
  return { id: label.labelId, name: label.name, prefix: label.prefix };
}

/** A v1 Label: `label` is the name, qualified by its prefix unless global. */
export function presentV1Label(label: PageLabel) {
  return {
    prefix: label.prefix,
    name: label.name,
    id: label.labelId,
    label: label.prefix === "global" ? label.name : `${label.prefix}:${label.name}`,
  };
}

/** An `include-*` sub-collection of a single-entity answer. */
export function included<T>(results: T[], self: string) {
  return { results, meta: { hasMore: false }, _links: { self } };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
