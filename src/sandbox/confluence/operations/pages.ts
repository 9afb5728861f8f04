/**
 * Confluence v2 page reads: getPages (filter by id, space, status, exact title), getPagesInSpace
 * (404 for an unknown space) and getPageById (body in storage or atlas_doc_format, labels, version).
 * The writes createPage and updatePage live in page-writes.ts and are registered here.
 */
import { z } from "zod";
import { confluenceError } from "../../api-error.ts";
import { defineOperation, type Operation } from "../../define-operation.ts";
import { numericId, qBool, qInt, qList } from "../../params.ts";
import type { Site } from "../../site.ts";
import { BODY_FORMATS } from "../bodies.ts";
import { NOT_FOUND, requirePage, requireSpace } from "../lookup.ts";
import type { Page } from "../model.ts";
import { cursorParam, limitParam, paginate, queryOf } from "../pagination.ts";
import { presentPage, presentPageSingle, wikiBase } from "../present.ts";
import { sortPages } from "../sort-pages.ts";
import { deletePage } from "./page-delete.ts";
import { createPage, updatePage } from "./page-writes.ts";

const PAGE_SORTS = [
  "id",
  "-id",
  "created-date",
  "-created-date",
  "modified-date",
  "-modified-date",
  "title",
  "-title",
] as const;
type PageSort = (typeof PAGE_SORTS)[number];

const LIST_STATUSES = ["current", "archived", "deleted", "trashed"] as const;

const listParams = {
  sort: z.enum(PAGE_SORTS).optional().describe("Sort order; default id ascending."),
  status: qList(z.enum(LIST_STATUSES))
    .optional()
    .describe("Page statuses to include; default current and archived."),
  title: z.string().optional().describe("Only the page with exactly this title (case-sensitive)."),
  "body-format": z
    .enum(["storage", "atlas_doc_format"])
    .optional()
    .describe("Include each page's body in this format; without it bodies are omitted."),
  cursor: cursorParam(),
  limit: limitParam(),
};

export const getPages = defineOperation({
  operationId: "getPages",
  api: "confluence",
  method: "GET",
  path: "/wiki/api/v2/pages",
  summary: "Lists Confluence pages; filter by space-id, exact title, ids or status.",
  effect: "read",
  status: 200,
  params: z.object({
    id: qList(numericId()).pipe(z.array(z.string()).max(250)).optional().describe("Page ids to return."),
    "space-id": qList(numericId())
      .pipe(z.array(z.string()).max(100))
      .optional()
      .describe("Only pages in these spaces (space ids from getSpaces)."),
    ...listParams,
    subtype: z
      .enum(["live", "page"])
      .optional()
      .describe("live = live docs only; page = classic pages only."),
  }),
  handler: (site, { params }, ctx) => {
    const statuses: readonly string[] = params.status ?? ["current", "archived"];
    const pages = [...site.values("pages")].filter(
      (p) =>
        statuses.includes(p.status) &&
        (!params.id || params.id.includes(p.id)) &&
        (!params["space-id"] || params["space-id"].includes(p.spaceId)) &&
        (params.title === undefined || p.title === params.title) &&
        params.subtype !== "live",
    );
    return listAnswer(site, pages, params, "/wiki/api/v2/pages", queryOf(params), ctx.baseUrl);
  },
});

export const getPagesInSpace = defineOperation({
  operationId: "getPagesInSpace",
  api: "confluence",
  method: "GET",
  path: "/wiki/api/v2/spaces/{id}/pages",
  summary: "Lists the pages of one Confluence space (all pages, or only root-level ones with depth=root).",
  effect: "read",
  status: 200,
  params: z.object({
    id: numericId().describe("The numeric space id (from getSpaces)."),
    depth: z
      .enum(["all", "root"])
      .optional()
      .describe("all = every page in the space (default); root = only pages at the top of the tree."),
    ...listParams,
  }),
  handler: (site, { params }, ctx) => {
    const space = requireSpace(site, params.id);
    const statuses: readonly string[] = params.status ?? ["current", "archived"];
    const pages = [...site.values("pages")].filter(
      (p) =>
        p.spaceId === space.id &&
        statuses.includes(p.status) &&
        (params.depth !== "root" || p.parentId === null) &&
        (params.title === undefined || p.title === params.title),
    );
    const path = `/wiki/api/v2/spaces/${space.id}/pages`;
    return listAnswer(site, pages, params, path, queryOf(params, "id"), ctx.baseUrl);
  },
});

function listAnswer(
  site: Site,
  pages: Page[],
  params: {
    sort?: PageSort | undefined;
    cursor?: string | undefined;
    limit?: number | undefined;
    "body-format"?: "storage" | "atlas_doc_format" | undefined;
  },
  path: string,
  query: Record<string, unknown>,
  baseUrl: string,
) {
  const page = paginate(sortPages(pages, params.sort ?? "id"), {
    cursor: params.cursor,
    limit: params.limit,
    path,
    query,
    base: wikiBase(baseUrl),
  });
  return {
    results: page.results.map((p) => presentPage(site, p, { bodyFormat: params["body-format"] })),
    _links: page._links,
  };
}

export const getPageById = defineOperation({
  operationId: "getPageById",
  api: "confluence",
  method: "GET",
  path: "/wiki/api/v2/pages/{id}",
  summary:
    "Returns one Confluence page: title, space, parent, version number (needed for updatePage) and, with body-format, its content.",
  effect: "read",
  status: 200,
  params: z.object({
    id: numericId().describe("The numeric page id (from getPages, getPagesInSpace or a child list)."),
    "body-format": z
      .enum(BODY_FORMATS)
      .optional()
      .describe("Include the body in this format: storage (XHTML) or atlas_doc_format (ADF JSON string)."),
    "get-draft": qBool().optional().describe("Return the draft of the page."),
    status: qList(z.enum(["current", "archived", "trashed", "deleted", "historical", "draft"]))
      .optional()
      .describe("Only return the page if it has one of these statuses."),
    version: qInt().optional().describe("A specific version number; only the current version is kept."),
    "include-labels": qBool().optional().describe("Include the page's labels."),
    "include-properties": qBool().optional().describe("Include content properties."),
    "include-operations": qBool().optional().describe("Include the operations the caller may perform."),
    "include-likes": qBool().optional().describe("Include likes."),
    "include-versions": qBool().optional().describe("Include the version history."),
    "include-version": qBool().optional().describe("Include the current version (default true)."),
    "include-favorited-by-current-user-status": qBool().optional(),
    "include-webresources": qBool().optional(),
    "include-collaborators": qBool().optional(),
    "include-direct-children": qBool().optional(),
  }),
  handler: (site, { params }, ctx) => {
    const statuses = params.status ?? (params["get-draft"] ? ["draft", "current"] : undefined);
    const page = requirePage(site, params.id, statuses);
    if (params.version !== undefined && params.version !== page.version.number)
      throw confluenceError(404, NOT_FOUND);
    return presentPageSingle(site, page, ctx.baseUrl, {
      bodyFormat: params["body-format"],
      includeVersion: params["include-version"],
      includeLabels: params["include-labels"],
      includeVersions: params["include-versions"],
      includeProperties: params["include-properties"],
      includeOperations: params["include-operations"],
      includeLikes: params["include-likes"],
      includeFavorited: params["include-favorited-by-current-user-status"],
    });
  },
});

export const PAGE_OPERATIONS: readonly Operation[] = [
  getPages,
  getPagesInSpace,
  getPageById,
  createPage,
  updatePage,
  deletePage,
];
