/**
 * Confluence v1 CQL search, searchByCQL (`GET /wiki/rest/api/search?cql=...`): how clients such as the
 * mcp-atlassian server find pages and spaces by title, name or text. Finds current pages (entityType
 * "content") and spaces (entityType "space"); see ../cql for the supported CQL. Without ORDER BY,
 * results come spaces first, then pages, by id. A query that does not parse is a v1 400.
 */
import { z } from "zod";
import { confluenceV1Error } from "../../api-error.ts";
import { confluenceTime } from "../../clock.ts";
import { defineOperation, type Operation } from "../../define-operation.ts";
import { qBool, qInt, qInt32 } from "../../params.ts";
import type { Site } from "../../site.ts";
import { type CqlEntity, entityTitle, pageText, runCql, searchableEntities } from "../cql/match.ts";
import { CqlError, type CqlQuery, parseCql } from "../cql/parse.ts";
import { encodeCursor } from "../pagination.ts";
import { pageLinks, wikiBase } from "../present.ts";

/** The most results one call answers, whatever `limit` asks. */
export const SEARCH_MAX_LIMIT = 100;
const EXCERPT_CHARS = 200;

export const searchByCQL = defineOperation({
  operationId: "searchByCQL",
  api: "confluence-v1",
  method: "GET",
  path: "/wiki/rest/api/search",
  summary:
    'Searches Confluence pages and spaces with CQL, e.g. type=space AND space.title="Operations Handbook", or type=page AND space=ENG AND title~"runbook".',
  effect: "read",
  status: 200,
  params: z.object({
    cql: z
      .string()
      .describe(
        "The CQL query. Fields: type (page, space), space / space.key, space.title, title, text, ancestor, parent, label, id; operators = != ~ !~ IN, NOT IN; AND, OR, NOT, parentheses; ORDER BY title|created|lastmodified ASC|DESC.",
      ),
    cqlcontext: z.string().optional().describe("JSON search context (ignored)."),
    cursor: z.string().optional().describe("The cursor from a previous answer's _links.next."),
    next: qBool().optional(),
    prev: qBool().optional(),
    limit: qInt32().pipe(z.number().min(0)).optional().describe("Maximum results (default 25, at most 100)."),
    start: qInt32().pipe(z.number().min(0)).optional().describe("Index of the first result."),
    includeArchivedSpaces: qBool().optional(),
    excludeCurrentSpaces: qBool().optional(),
    excerpt: z
      .enum(["highlight", "indexed", "none", "highlight_unescaped", "indexed_unescaped"])
      .optional()
      .describe("Excerpt strategy; `none` leaves excerpts empty."),
    sitePermissionTypeFilter: z.enum(["externalCollaborator", "none"]).optional(),
    _: qInt().optional(),
    expand: z.union([z.string(), z.array(z.string())]).optional(),
  }),
  handler: (site, { params }, ctx) => {
    const query = parseOrFail(params.cql);
    const found = params.excludeCurrentSpaces ? [] : runCql(site, query, searchableEntities(site));
    const start = params.start ?? decodeSearchCursor(params.cursor);
    const limit = Math.min(params.limit ?? 25, SEARCH_MAX_LIMIT);
    const results = found.slice(start, start + limit);
    const more = limit > 0 && start + limit < found.length;
    const self = `/rest/api/search?cql=${encodeURIComponent(params.cql)}`;
    return {
      results: results.map((e) => presentResult(site, e, params.excerpt === "none")),
      start,
      limit,
      size: results.length,
      totalSize: found.length,
      cqlQuery: params.cql,
      searchDuration: 0,
      archivedResultCount: 0,
      _links: {
        base: wikiBase(ctx.baseUrl),
        context: "/wiki",
        self: `${wikiBase(ctx.baseUrl)}${self}`,
        ...(more ? { next: `${self}&limit=${limit}&cursor=${encodeCursor(start + limit)}` } : {}),
      },
    };
  },
});

function parseOrFail(cql: string): CqlQuery {
  try {
    return parseCql(cql);
  } catch (error) {
    if (error instanceof CqlError) throw confluenceV1Error(400, error.message);
    throw error;
  }
}

function decodeSearchCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === "") return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) throw confluenceV1Error(400, `Invalid cursor: ${cursor}`);
  return Number(match[1]);
}

/** A v1 SearchResult for a page (entityType "content") or a space (entityType "space"). */
function presentResult(site: Site, e: CqlEntity, noExcerpt: boolean) {
  const spaceUrl = `/spaces/${e.space.key}`;
  const container = { title: e.space.name, displayUrl: spaceUrl };
  const common = { breadcrumbs: [], resultGlobalContainer: container };
  if (e.kind === "space") {
    return {
      space: {
        id: Number(e.space.id),
        key: e.space.key,
        name: e.space.name,
        type: "global",
        status: "current",
        _expandable: {
          settings: `/rest/api/space/${e.space.key}/settings`,
          metadata: "",
          operations: "",
          lookAndFeel: `/rest/api/settings/lookandfeel?spaceKey=${e.space.key}`,
          permissions: "",
          icon: "",
          description: "",
          theme: `/rest/api/space/${e.space.key}/theme`,
          history: "",
          homepage: `/rest/api/content/${e.space.homepageId}`,
        },
        _links: { webui: spaceUrl, self: `/rest/api/space/${e.space.key}` },
      },
      title: e.space.name,
      excerpt: noExcerpt ? "" : e.space.description,
      url: spaceUrl,
      entityType: "space",
      iconCssClass: "aui-icon content-type-space",
      lastModified: confluenceTime(e.space.createdAt),
      ...common,
    };
  }
  const links = pageLinks(site, e.page);
  return {
    content: {
      id: e.page.id,
      type: "page",
      status: e.page.status,
      title: e.page.title,
      _expandable: {
        space: `/rest/api/space/${e.space.key}`,
        history: `/rest/api/content/${e.page.id}/history`,
      },
      _links: { webui: links.webui, self: `/rest/api/content/${e.page.id}`, tinyui: links.tinyui },
    },
    title: entityTitle(e),
    excerpt: noExcerpt ? "" : pageText(e.page).slice(0, EXCERPT_CHARS),
    url: links.webui,
    entityType: "content",
    iconCssClass: "aui-icon content-type-page",
    lastModified: confluenceTime(e.page.version.createdAt),
    ...common,
  };
}

export const CQL_SEARCH_OPERATIONS: readonly Operation[] = [searchByCQL];
