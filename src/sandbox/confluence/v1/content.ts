/**
 * Confluence v1 content as a presentation of the v2 page operations: getContent (→ getPages),
 * createContent (→ createPage), getContentById (→ getPageById), updateContent (→ updatePage) and
 * getContentChildrenByType for pages (→ getChildPages). Requests name spaces by key and parents by
 * `ancestors`; answers are v1 Content with `expand`, and errors are v1's.
 */
import { z } from "zod";
import { confluenceV1Error } from "../../api-error.ts";
import type { OperationResult } from "../../execute.ts";
import { lookupId, qInt, qInt32 } from "../../params.ts";
import type { Presentation } from "../../presentation.ts";
import type { Site } from "../../site.ts";
import { getChildPages } from "../operations/page-tree.ts";
import { createPage, updatePage } from "../operations/page-writes.ts";
import { getPageById, getPages } from "../operations/pages.ts";
import { expansions, presentContent, v1List } from "./present-content.ts";
import {
  contentNotFound,
  cursorAt,
  parseV1,
  requireContentId,
  spaceNotFound,
  v1Failure,
  v1Limit,
} from "./v1-request.ts";

const paging = {
  start: qInt32().pipe(z.number().min(0)).optional(),
  limit: v1Limit().optional(),
  expand: z.union([z.string(), z.array(z.string())]).optional(),
};

const listParams = z.looseObject({
  spaceKey: z.string().optional(),
  title: z.string().optional(),
  type: z.enum(["page", "blogpost"]).optional(),
  status: z.enum(["current", "trashed", "draft", "archived", "any"]).optional(),
  ...paging,
});

const V2_STATUSES: Record<string, string[]> = {
  current: ["current"],
  archived: ["archived"],
  trashed: ["trashed"],
  any: ["current", "archived", "trashed"],
};

/** A page id that exists nowhere: filters a v2 list down to nothing (unknown space, blog posts). */
const NO_PAGE = "0";

function spaceIdForKey(site: Site, key: string): string | undefined {
  for (const space of site.values("spaces")) if (space.key === key) return space.id;
  return undefined;
}

/** Content of a v2 list answer, re-read from the site and presented as v1. */
function contentList(
  result: OperationResult,
  site: Site,
  baseUrl: string,
  path: string,
  query: Record<string, unknown>,
  notFound?: string,
): OperationResult {
  if (!result.ok) return v1Failure(result, notFound);
  const body = result.body as { results: { id: string }[]; _links: { next?: string } };
  const { start = 0, limit = 25, expand } = parseV1(z.looseObject(paging), query, "params");
  const expand_ = expansions(expand);
  const pages = body.results.map((r) => presentContent(site, site.get("pages", r.id)!, expand_));
  const answer = v1List(pages, start, limit, body._links.next !== undefined, baseUrl, path, query);
  return { ...result, body: answer };
}

export const getContent: Presentation = {
  operationId: "getContent",
  api: "confluence-v1",
  method: "GET",
  path: "/wiki/rest/api/content",
  operation: getPages,
  request: (input, site) => {
    const p = parseV1(listParams, input.params, "params");
    const spaceId = p.spaceKey === undefined ? undefined : (spaceIdForKey(site, p.spaceKey) ?? NO_PAGE);
    return {
      params: {
        ...(spaceId !== undefined ? { "space-id": [spaceId] } : {}),
        ...(p.type === "blogpost" || p.status === "draft" ? { id: [NO_PAGE] } : {}),
        ...(p.title !== undefined ? { title: p.title } : {}),
        status: V2_STATUSES[p.status ?? "current"] ?? ["current"],
        limit: p.limit ?? 25,
        ...(cursorAt(p.start ?? 0) ? { cursor: cursorAt(p.start ?? 0) } : {}),
      },
    };
  },
  response: (result, site, ctx, input) =>
    contentList(result, site, ctx.baseUrl, "/rest/api/content", input.params),
};

const contentBody = z.looseObject({
  storage: z.looseObject({ value: z.string(), representation: z.string().optional() }).optional(),
  atlas_doc_format: z.looseObject({ value: z.string(), representation: z.string().optional() }).optional(),
  wiki: z.looseObject({ value: z.string(), representation: z.string().optional() }).optional(),
  editor: z.looseObject({ value: z.string(), representation: z.string().optional() }).optional(),
});

const ancestorsSchema = z.array(z.looseObject({ id: z.union([z.string(), z.number()]) })).optional();

const createBody = z.looseObject({
  type: z.enum(["page", "blogpost", "comment", "attachment"]),
  title: z.string(),
  space: z.looseObject({ key: z.string() }),
  status: z.enum(["current", "draft"]).optional(),
  ancestors: ancestorsSchema,
  body: contentBody.optional(),
});

/** v1 bodies carry their representation as the key; `editor` is not a write format here. */
function v2Body(body: z.output<typeof contentBody> | undefined) {
  if (!body) return undefined;
  if (body.editor && !body.storage && !body.atlas_doc_format)
    throw confluenceV1Error(400, "The 'editor' representation is not supported: send body.storage.");
  const { editor: _editor, ...rest } = body;
  return rest;
}

const parentOf = (ancestors: z.output<typeof ancestorsSchema>) =>
  ancestors && ancestors.length > 0 ? String(ancestors[ancestors.length - 1]!.id) : undefined;

const writeExpand = new Set(["space", "version", "ancestors", "history"]);

/** The single-page answer of a write or read, presented as v1 Content. */
function contentAnswer(
  result: OperationResult,
  site: Site,
  expand: Set<string>,
  id?: string,
): OperationResult {
  if (!result.ok) return v1Failure(result, id ? contentNotFound(id) : undefined);
  const page = site.get("pages", (result.body as { id: string }).id)!;
  return { ...result, status: 200, body: presentContent(site, page, expand) };
}

export const createContent: Presentation = {
  operationId: "createContent",
  api: "confluence-v1",
  method: "POST",
  path: "/wiki/rest/api/content",
  operation: createPage,
  request: (input, site) => {
    const body = parseV1(createBody, input.body, "body");
    if (body.type !== "page")
      throw confluenceV1Error(400, `Content type '${body.type}' is not supported here: create a 'page'.`);
    const spaceId = spaceIdForKey(site, body.space.key);
    if (!spaceId) throw confluenceV1Error(404, spaceNotFound(body.space.key));
    const status = body.status ?? (input.params.status === "draft" ? "draft" : "current");
    const parentId = parentOf(body.ancestors);
    const pageBody = v2Body(body.body);
    return {
      params: {},
      body: {
        spaceId,
        status,
        title: body.title,
        ...(parentId ? { parentId } : {}),
        ...(pageBody ? { body: pageBody } : {}),
      },
    };
  },
  response: (result, site, _ctx, input) => {
    const written = (input.body as { body?: Record<string, unknown> } | undefined)?.body ?? {};
    const bodies = Object.keys(written).map((k) => `body.${k}`);
    return contentAnswer(result, site, new Set([...writeExpand, ...bodies]));
  },
};

const byIdParams = z.looseObject({
  id: lookupId(),
  status: z.string().optional(),
  version: qInt().optional(),
  expand: z.union([z.string(), z.array(z.string())]).optional(),
});

export const getContentById: Presentation = {
  operationId: "getContentById",
  api: "confluence-v1",
  method: "GET",
  path: "/wiki/rest/api/content/{id}",
  operation: getPageById,
  request: (input) => {
    const p = parseV1(byIdParams, input.params, "params");
    requireContentId(p.id);
    const expand = expansions(p.expand);
    const format = expand.has("body.atlas_doc_format") ? "atlas_doc_format" : "storage";
    return {
      params: {
        id: p.id,
        "body-format": format,
        ...(p.version !== undefined ? { version: p.version } : {}),
        ...(p.status === "trashed" || p.status === "any"
          ? { status: ["current", "archived", "trashed"] }
          : {}),
      },
    };
  },
  response: (result, site, _ctx, input) =>
    contentAnswer(result, site, expansions(input.params.expand), String(input.params.id)),
};

const updateBody = z.looseObject({
  id: z.union([z.string(), z.number()]).optional(),
  type: z.string(),
  title: z.string(),
  status: z.enum(["current", "draft"]).optional(),
  ancestors: ancestorsSchema,
  body: contentBody.optional(),
  version: z.looseObject({
    number: z.number().int(),
    message: z.string().optional(),
    minorEdit: z.boolean().optional(),
  }),
});

export const updateContent: Presentation = {
  operationId: "updateContent",
  api: "confluence-v1",
  method: "PUT",
  path: "/wiki/rest/api/content/{id}",
  operation: updatePage,
  request: (input, site) => {
    const id = requireContentId(parseV1(byIdParams, input.params, "params").id);
    const body = parseV1(updateBody, input.body, "body");
    if (body.id !== undefined && String(body.id) !== id)
      throw confluenceV1Error(400, `Content id in the body (${body.id}) does not match the path (${id}).`);
    const current = site.get("pages", id);
    if (!current || current.status === "trashed") throw confluenceV1Error(404, contentNotFound(id));
    const parentId = parentOf(body.ancestors);
    const pageBody = v2Body(body.body) ?? {
      representation: current.body.representation,
      value: current.body.value,
    };
    return {
      params: { id },
      body: {
        id,
        status: body.status ?? "current",
        title: body.title,
        ...(parentId ? { parentId } : {}),
        body: pageBody,
        version: body.version,
      },
    };
  },
  response: (result, site, _ctx, input) => {
    const written = (input.body as { body?: Record<string, unknown> } | undefined)?.body ?? {};
    const bodies = Object.keys(written).map((k) => `body.${k}`);
    return contentAnswer(result, site, new Set([...writeExpand, ...bodies]), String(input.params.id));
  },
};

const childParams = z.looseObject({
  id: lookupId(),
  type: z.literal("page", "only child pages are served here (type must be 'page')"),
  parentVersion: qInt().optional(),
  ...paging,
});

export const getContentChildrenByType: Presentation = {
  operationId: "getContentChildrenByType",
  api: "confluence-v1",
  method: "GET",
  path: "/wiki/rest/api/content/{id}/child/{type}",
  operation: getChildPages,
  request: (input) => {
    const p = parseV1(childParams, input.params, "params");
    requireContentId(p.id);
    const cursor = cursorAt(p.start ?? 0);
    return { params: { id: p.id, limit: p.limit ?? 25, ...(cursor ? { cursor } : {}) } };
  },
  response: (result, site, ctx, input) => {
    const { id, type, ...query } = input.params;
    const path = `/rest/api/content/${id}/child/${type}`;
    return contentList(result, site, ctx.baseUrl, path, query, contentNotFound(String(id)));
  },
};

export const CONTENT_PRESENTATIONS: readonly Presentation[] = [
  getContent,
  createContent,
  getContentById,
  updateContent,
  getContentChildrenByType,
];
