/**
 * Confluence v1 shapes (Content, Space, ContentArray, SpaceArray, user) built from the stored pages and
 * spaces, with v1's `expand` (body.storage, body.atlas_doc_format, version, ancestors, space, history)
 * and its site-relative `_links`.
 */
import { confluenceTime } from "../../clock.ts";
import type { Site } from "../../site.ts";
import { bodyValue } from "../bodies.ts";
import type { Page, Space } from "../model.ts";
import { pageLinks, wikiBase } from "../present.ts";

/** The expansions a v1 read asked for (`expand=body.storage,version,space`), as a set. */
export function expansions(expand: unknown): Set<string> {
  const items = Array.isArray(expand) ? expand : typeof expand === "string" ? [expand] : [];
  return new Set(items.flatMap((s: unknown) => String(s).split(",")).map((s) => s.trim()));
}

export function presentV1User(site: Site, accountId: string) {
  const user = site.get("users", accountId);
  const name = user?.displayName ?? "Unknown user";
  return {
    type: "known" as const,
    accountId,
    accountType: user?.accountType ?? "atlassian",
    email: user?.emailAddress ?? "",
    publicName: name,
    displayName: name,
    profilePicture: {
      path: `/wiki/aa-avatar/${accountId}`,
      width: 48,
      height: 48,
      isDefault: true,
    },
    isExternalCollaborator: false,
    _expandable: { operations: "", personalSpace: "" },
    _links: { self: `/rest/api/user?accountId=${accountId}` },
  };
}

export function presentV1Space(space: Space, expand: Set<string> = new Set()) {
  return {
    id: Number(space.id),
    key: space.key,
    name: space.name,
    type: "global",
    status: "current",
    ...(expand.has("description") || expand.has("description.plain")
      ? // SpaceDescription requires embeddedContent; Confluence sends it empty for a plain description.
        { description: { plain: { value: space.description, representation: "plain", embeddedContent: [] } } }
      : {}),
    ...(expand.has("homepage")
      ? { homepage: { id: space.homepageId, type: "page", status: "current" } }
      : {}),
    _expandable: {
      settings: `/rest/api/space/${space.key}/settings`,
      metadata: "",
      operations: "",
      lookAndFeel: `/rest/api/settings/lookandfeel?spaceKey=${space.key}`,
      permissions: "",
      icon: "",
      description: "",
      theme: `/rest/api/space/${space.key}/theme`,
      history: "",
      homepage: `/rest/api/content/${space.homepageId}`,
    },
    _links: { webui: `/spaces/${space.key}`, self: `/rest/api/space/${space.key}` },
  };
}

export function presentV1Version(site: Site, page: Page) {
  return {
    by: presentV1User(site, page.version.authorId),
    when: confluenceTime(page.version.createdAt),
    friendlyWhen: confluenceTime(page.version.createdAt),
    message: page.version.message,
    number: page.version.number,
    minorEdit: page.version.minorEdit,
    _expandable: { content: `/rest/api/content/${page.id}` },
    _links: { self: `/rest/api/content/${page.id}/version/${page.version.number}` },
  };
}

/** A v1 ContentHistory: who created the page and when, and its current version as `lastUpdated`. */
export function presentHistory(site: Site, page: Page) {
  return {
    latest: true,
    createdBy: presentV1User(site, page.authorId),
    createdDate: confluenceTime(page.createdAt),
    lastUpdated: presentV1Version(site, page),
    _links: { self: `/rest/api/content/${page.id}/history` },
  };
}

/** The page's ancestors, root first. */
function ancestorsOf(site: Site, page: Page): Page[] {
  const chain: Page[] = [];
  for (let id = page.parentId; id; ) {
    const parent = site.get("pages", id);
    if (!parent) break;
    chain.unshift(parent);
    id = parent.parentId;
  }
  return chain;
}

const BODY_KEYS = ["storage", "atlas_doc_format", "view", "export_view", "styled_view", "editor"] as const;

/** A v1 Content for a page, with the requested expansions. */
export function presentContent(site: Site, page: Page, expand: Set<string>): Record<string, unknown> {
  const space = site.get("spaces", page.spaceId)!;
  const links = pageLinks(site, page);
  const bodies = BODY_KEYS.filter((k) => expand.has(`body.${k}`));
  const expandable: Record<string, string> = {
    childTypes: "",
    container: `/rest/api/space/${space.key}`,
    metadata: "",
    operations: "",
    children: `/rest/api/content/${page.id}/child`,
    restrictions: `/rest/api/content/${page.id}/restriction/byOperation`,
    descendants: `/rest/api/content/${page.id}/descendant`,
  };
  for (const key of ["space", "version", "ancestors", "history", "body"])
    if (!expand.has(key) && !(key === "body" && bodies.length > 0))
      expandable[key] = key === "space" ? `/rest/api/space/${space.key}` : "";
  return {
    id: page.id,
    type: "page",
    status: page.status,
    title: page.title,
    ...(expand.has("space") ? { space: presentV1Space(space) } : {}),
    ...(expand.has("history") ? { history: presentHistory(site, page) } : {}),
    ...(expand.has("version") ? { version: presentV1Version(site, page) } : {}),
    ...(expand.has("ancestors")
      ? { ancestors: ancestorsOf(site, page).map((a) => presentContent(site, a, new Set())) }
      : {}),
    ...(bodies.length > 0
      ? {
          body: Object.fromEntries(
            bodies.map((k) => [k, { value: bodyValue(page.body, k), representation: k }]),
          ),
        }
      : {}),
    extensions: { position: page.position },
    _expandable: expandable,
    _links: {
      webui: links.webui,
      edit: links.editui,
      tinyui: links.tinyui,
      self: `/rest/api/content/${page.id}`,
    },
  };
}

/** A v1 list answer (ContentArray / SpaceArray) with `_links.next` when more remain. */
export function v1List<T>(
  results: T[],
  start: number,
  limit: number,
  more: boolean,
  baseUrl: string,
  path: string,
  query: Record<string, unknown>,
) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && key !== "start" && key !== "limit")
      search.set(key, Array.isArray(value) ? value.join(",") : String(value));
  const next = new URLSearchParams(search);
  next.set("limit", String(limit));
  next.set("start", String(start + limit));
  const self = `${wikiBase(baseUrl)}${path}${search.size > 0 ? `?${search}` : ""}`;
  return {
    results,
    start,
    limit,
    size: results.length,
    _links: {
      base: wikiBase(baseUrl),
      context: "/wiki",
      self,
      ...(more ? { next: `${path}?${next}` } : {}),
    },
  };
}
