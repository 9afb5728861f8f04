/**
 * The Confluence tools of the community sooperset/mcp-atlassian server (tool surface: docs/mcp.md): spaces by key, pages by id, URL or title + space key, page content in Markdown
 * unless `content_format` says otherwise, updates that take the current version from the site, and one
 * label per confluence_add_label call. Keys and titles are resolved on the site, as the server does.
 * confluence_search takes CQL or plain text (searched as `text ~ "..."`, as the server turns a query
 * without CQL operators into a text search) and runs the v1 CQL search.
 */
import { z } from "zod";
import type { Site } from "../../sandbox/site.ts";
import type { ToolSpec } from "../define-tool.ts";
import { pageBody } from "./content.ts";
import { defineAlias, defined } from "./define-alias.ts";
import { pageByTitle, pageIdOf, spaceByKey } from "./lookups.ts";

const page_id = z
  .union([z.string(), z.number()])
  .transform(String)
  .describe("Confluence page id (or page URL).");
const space_key = z.string().min(1).describe("The key of the space, e.g. 'DEV'.");
const content_format = z
  .enum(["markdown", "wiki", "storage"])
  .optional()
  .describe("Format of `content`: markdown (default), storage (XHTML) or wiki.");

export const MCP_ATLASSIAN_CONFLUENCE_TOOLS: readonly ToolSpec[] = [
  defineAlias({
    name: "confluence_search",
    operationId: "searchByCQL",
    description:
      'Search Confluence pages and spaces with CQL or plain text, e.g. type=space AND space.title="Operations Handbook", or type=page AND space=DEV AND title~"deploy".',
    args: z.object({
      query: z
        .string()
        .min(1)
        .describe(
          "CQL (fields type, space, space.title, title, text, ancestor, parent, label, id; = != ~ !~ IN; AND OR NOT; ORDER BY), or plain text to search for.",
        ),
      limit: z.number().int().min(1).max(50).optional().describe("Maximum results (1-50, default 10)."),
      spaces_filter: z
        .string()
        .optional()
        .describe("Comma-separated space keys to search in, e.g. 'DEV,OPS'."),
    }),
    map: (a) => ({
      params: { cql: searchCql(a.query, a.spaces_filter), limit: a.limit ?? 10 },
      body: undefined,
    }),
  }),
  defineAlias({
    name: "confluence_get_page",
    operationId: "getPageById",
    description: "Get the content of a Confluence page by id or URL, or by title and space key.",
    args: z
      .object({
        page_id: page_id.optional(),
        title: z.string().optional().describe("Exact page title (with space_key, instead of page_id)."),
        space_key: space_key.optional(),
        include_metadata: z
          .boolean()
          .optional()
          .describe("Include labels and version details (default true)."),
      })
      .refine((a) => a.page_id !== undefined || (a.title !== undefined && a.space_key !== undefined), {
        message: "give page_id, or title and space_key",
      }),
    map: (a, site) => ({
      params: defined({
        id: pageRef(site, a),
        "body-format": "storage",
        "include-labels": a.include_metadata === false ? undefined : true,
      }),
      body: undefined,
    }),
  }),
  defineAlias({
    name: "confluence_get_page_children",
    operationId: "getChildPages",
    description: "Get the child pages of a Confluence page.",
    args: z.object({
      parent_id: page_id,
      limit: z.number().int().min(1).max(50).optional().describe("Maximum children (default 25)."),
    }),
    map: (a) => ({ params: { id: pageIdOf(a.parent_id), limit: a.limit ?? 25 }, body: undefined }),
  }),
  defineAlias({
    name: "confluence_get_space_page_tree",
    operationId: "getPagesInSpace",
    description: "List the pages of a Confluence space.",
    args: z.object({
      space_key,
      limit: z.number().int().min(1).max(250).optional().describe("Maximum pages (default 100)."),
    }),
    map: (a, site) => ({
      params: { id: spaceByKey(site, a.space_key).id, limit: a.limit ?? 100 },
      body: undefined,
    }),
  }),
  defineAlias({
    name: "confluence_create_page",
    operationId: "createPage",
    description: "Create a new Confluence page in a space (by key), optionally under a parent page.",
    args: z.object({
      space_key,
      title: z.string().min(1).describe("The title of the page."),
      content: z
        .string()
        .describe("The content of the page, in Markdown unless content_format says otherwise."),
      parent_id: page_id.optional().describe("Optional parent page id."),
      content_format,
    }),
    map: (a, site) => ({
      params: {},
      body: defined({
        spaceId: spaceByKey(site, a.space_key).id,
        status: "current",
        title: a.title,
        parentId: a.parent_id === undefined ? undefined : pageIdOf(a.parent_id),
        body: pageBody(a.content, a.content_format),
      }),
    }),
  }),
  defineAlias({
    name: "confluence_update_page",
    operationId: "updatePage",
    description: "Update an existing Confluence page; the version number is handled for you.",
    args: z.object({
      page_id,
      title: z.string().min(1).describe("The (new) title of the page."),
      content: z.string().describe("The new content, in Markdown unless content_format says otherwise."),
      is_minor_edit: z.boolean().optional().describe("Whether this is a minor edit."),
      version_comment: z.string().optional().describe("A comment for this version."),
      parent_id: page_id.optional().describe("A new parent page id, to move the page."),
      content_format,
    }),
    map: (a, site) => {
      const id = pageIdOf(a.page_id);
      const number = (site.get("pages", id)?.version.number ?? 0) + 1;
      return {
        params: { id },
        body: defined({
          id,
          status: "current",
          title: a.title,
          parentId: a.parent_id === undefined ? undefined : pageIdOf(a.parent_id),
          body: pageBody(a.content, a.content_format),
          version: defined({ number, message: a.version_comment, minorEdit: a.is_minor_edit }),
        }),
      };
    },
  }),
  defineAlias({
    name: "confluence_get_labels",
    operationId: "getPageLabels",
    description: "Get the labels of a Confluence page.",
    args: z.object({ page_id }),
    map: (a) => ({ params: { id: pageIdOf(a.page_id) }, body: undefined }),
  }),
  defineAlias({
    name: "confluence_add_label",
    operationId: "addLabelsToContent",
    description: "Add one label to a Confluence page (lowercase, no spaces).",
    args: z.object({ page_id, name: z.string().min(1).describe("The label, e.g. 'runbook'.") }),
    map: (a) => ({ params: { id: pageIdOf(a.page_id) }, body: [{ prefix: "global", name: a.name }] }),
  }),
];

/** The page id of confluence_get_page's arguments: an id or URL, else a title in a space. */
function pageRef(
  site: Site,
  a: { page_id?: string; title?: string; space_key?: string },
): string | undefined {
  if (a.page_id !== undefined) return pageIdOf(a.page_id);
  if (a.title !== undefined && a.space_key !== undefined) return pageByTitle(site, a.space_key, a.title).id;
  return undefined;
}

/** CQL operators that mark a query as CQL; any other query is searched as text. */
const CQL_MARKERS = ["=", "~", ">", "<", " AND ", " OR ", "currentUser()"];

/** The CQL of confluence_search: the query (or a text search for it), restricted to spaces_filter. */
export function searchCql(query: string, spacesFilter?: string): string {
  const cql = CQL_MARKERS.some((m) => query.includes(m))
    ? query
    : `text ~ "${query.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  const keys = (spacesFilter ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);
  if (keys.length === 0) return cql;
  const filter = `space IN (${keys.map((k) => `"${k.replace(/"/g, "")}"`).join(", ")})`;
  // ` ${cql}` is one character longer, so the match index is where ORDER starts in `cql`.
  const order = /\sORDER\s+BY\s/i.exec(` ${cql}`);
  if (!order) return `(${cql}) AND ${filter}`;
  const at = order.index;
  return `(${cql.slice(0, at).trim()}) AND ${filter} ${cql.slice(at).trim()}`;
}
