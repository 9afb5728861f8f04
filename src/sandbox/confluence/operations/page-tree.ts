/**
 * Confluence v2 page tree: getChildPages (deprecated, pages only) and getPageDirectChildren (all
 * content types; here always pages). Both list published children in tree order (child position),
 * with cursor pages. getPageAncestors walks the other way, to the top of the space.
 */
import { z } from "zod";
import { defineOperation, type Operation } from "../../define-operation.ts";
import { numericId } from "../../params.ts";
import type { Site } from "../../site.ts";
import { requirePage } from "../lookup.ts";
import type { Page } from "../model.ts";
import { cursorParam, DEFAULT_LIMIT, limitParam, paginate, queryOf } from "../pagination.ts";
import { wikiBase } from "../present.ts";
import { sortPages } from "../sort-pages.ts";
import { childrenOf } from "../store.ts";

const CHILD_SORTS = [
  "created-date",
  "-created-date",
  "id",
  "-id",
  "child-position",
  "-child-position",
  "modified-date",
  "-modified-date",
  "title",
  "-title",
] as const;
type ChildSort = (typeof CHILD_SORTS)[number];

const treeParams = (sorts: readonly ChildSort[]) =>
  z.object({
    id: numericId().describe("The numeric id of the parent page."),
    cursor: cursorParam(),
    limit: limitParam(),
    sort: z
      .enum(sorts as [ChildSort, ...ChildSort[]])
      .optional()
      .describe("Sort order; default child-position (the order shown in the page tree)."),
  });

/** Published (current or archived) children of a page, sorted. */
function sortedChildren(site: Site, parentId: string, sort: ChildSort): Page[] {
  const published = childrenOf(site, parentId).filter(
    (p) => p.status === "current" || p.status === "archived",
  );
  return sortPages(published, sort);
}

export const getChildPages = defineOperation({
  operationId: "getChildPages",
  api: "confluence",
  method: "GET",
  path: "/wiki/api/v2/pages/{id}/children",
  summary: "Lists the child pages of a Confluence page, in page-tree order.",
  effect: "read",
  status: 200,
  params: treeParams(CHILD_SORTS.filter((s) => !s.endsWith("title"))),
  handler: (site, { params }, ctx) => {
    const parent = requirePage(site, params.id);
    const page = paginate(sortedChildren(site, parent.id, params.sort ?? "child-position"), {
      cursor: params.cursor,
      limit: params.limit,
      path: `/wiki/api/v2/pages/${parent.id}/children`,
      query: queryOf(params, "id"),
      base: wikiBase(ctx.baseUrl),
    });
    return {
      results: page.results.map((p) => ({
        id: p.id,
        status: p.status,
        title: p.title,
        spaceId: p.spaceId,
        childPosition: p.position,
      })),
      _links: page._links,
    };
  },
});

export const getPageDirectChildren = defineOperation({
  operationId: "getPageDirectChildren",
  api: "confluence",
  method: "GET",
  path: "/wiki/api/v2/pages/{id}/direct-children",
  summary: "Lists the direct children (pages, folders, whiteboards...) of a Confluence page, in tree order.",
  effect: "read",
  status: 200,
  params: treeParams(CHILD_SORTS),
  handler: (site, { params }, ctx) => {
    const parent = requirePage(site, params.id);
    const page = paginate(sortedChildren(site, parent.id, params.sort ?? "child-position"), {
      cursor: params.cursor,
      limit: params.limit,
      path: `/wiki/api/v2/pages/${parent.id}/direct-children`,
      query: queryOf(params, "id"),
      base: wikiBase(ctx.baseUrl),
    });
    return {
      results: page.results.map((p) => ({
        id: p.id,
        status: p.status,
        title: p.title,
        type: "page",
        spaceId: p.spaceId,
        childPosition: p.position,
      })),
      _links: page._links,
    };
  },
});

/**
 * getPageAncestors: the page's ancestors top to bottom, at most `limit` of them, the nearest ones; the
 * rest are the ancestors of the first one given, as Cloud documents (no cursor).
 */
export const getPageAncestors = defineOperation({
  operationId: "getPageAncestors",
  api: "confluence",
  method: "GET",
  path: "/wiki/api/v2/pages/{id}/ancestors",
  summary:
    "Lists a Confluence page's ancestors, highest first; with more than `limit`, ask again with the first one's id.",
  effect: "read",
  status: 200,
  params: z.object({ id: numericId().describe("The numeric id of the page."), limit: limitParam() }),
  handler: (site, { params }, ctx) => {
    const page = requirePage(site, params.id);
    const ancestors: string[] = [];
    const seen = new Set([page.id]); // a tree by construction; a cycle would end the walk, not hang it
    for (let up = page.parentId; up !== null && !seen.has(up); up = site.get("pages", up)?.parentId ?? null) {
      seen.add(up);
      ancestors.push(up);
    }
    const nearest = ancestors.slice(0, params.limit ?? DEFAULT_LIMIT).reverse();
    return { results: nearest.map((id) => ({ id, type: "page" })), _links: { base: wikiBase(ctx.baseUrl) } };
  },
});

export const PAGE_TREE_OPERATIONS: readonly Operation[] = [
  getChildPages,
  getPageDirectChildren,
  getPageAncestors,
];
