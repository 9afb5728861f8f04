/**
 * Confluence v2 spaces: getSpaces (filter by ids, keys, type, status; sort; cursor pages) and
 * getSpaceById. Every simulated space is a current global space; there is no `/spaces/{key}`, so a
 * space is found by key with `getSpaces?keys=ENG`.
 */
import { z } from "zod";
import { defineOperation, type Operation } from "../../define-operation.ts";
import { numericId, qBool, qList } from "../../params.ts";
import { requireSpace } from "../lookup.ts";
import type { Space } from "../model.ts";
import { cursorParam, limitParam, paginate, queryOf } from "../pagination.ts";
import { included, presentSpace, wikiBase } from "../present.ts";

const SPACE_TYPES = [
  "global",
  "collaboration",
  "knowledge_base",
  "personal",
  "system",
  "onboarding",
  "xflow_sample_space",
] as const;
const SPACE_SORTS = ["id", "-id", "key", "-key", "name", "-name"] as const;

const descriptionFormat = z
  .enum(["plain", "view"])
  .optional()
  .describe("Include the space description in this format (plain text or HTML view).");
const includeIcon = qBool().optional().describe("Include the space icon.");

export const getSpaces = defineOperation({
  operationId: "getSpaces",
  api: "confluence",
  method: "GET",
  path: "/wiki/api/v2/spaces",
  summary: "Lists Confluence spaces; filter by space keys (e.g. keys=ENG) or ids to find a space's id.",
  effect: "read",
  status: 200,
  params: z.object({
    ids: qList(numericId()).pipe(z.array(z.string()).max(250)).optional().describe("Space ids to return."),
    keys: qList(z.string())
      .pipe(z.array(z.string()).max(250))
      .optional()
      .describe("Space keys to return, e.g. ['ENG']. This is how to look a space up by its key."),
    type: z.enum(SPACE_TYPES).optional().describe("Only spaces of this type."),
    status: z.enum(["current", "archived"]).optional().describe("Only spaces with this status."),
    labels: qList(z.string()).optional().describe("Only spaces with these labels."),
    "favorited-by": z.string().optional().describe("Only spaces favourited by this accountId."),
    "not-favorited-by": z.string().optional().describe("Only spaces not favourited by this accountId."),
    sort: z.enum(SPACE_SORTS).optional().describe("Sort order; default id ascending."),
    "description-format": descriptionFormat,
    "include-icon": includeIcon,
    cursor: cursorParam(),
    limit: limitParam(),
  }),
  handler: (site, { params }, ctx) => {
    const spaces = [...site.values("spaces")].filter(
      (s) =>
        (!params.ids || params.ids.includes(s.id)) &&
        (!params.keys || params.keys.includes(s.key)) &&
        (!params.type || params.type === "global") &&
        (!params.status || params.status === "current") &&
        (!params.labels || params.labels.length === 0) &&
        !params["favorited-by"],
    );
    const page = paginate(sortSpaces(spaces, params.sort ?? "id"), {
      cursor: params.cursor,
      limit: params.limit,
      path: "/wiki/api/v2/spaces",
      query: queryOf(params),
      base: wikiBase(ctx.baseUrl),
    });
    const options = { descriptionFormat: params["description-format"], includeIcon: params["include-icon"] };
    return { results: page.results.map((s) => presentSpace(s, options)), _links: page._links };
  },
});

function sortSpaces(spaces: Space[], sort: (typeof SPACE_SORTS)[number]): Space[] {
  const field = sort.replace(/^-/, "") as "id" | "key" | "name";
  const sign = sort.startsWith("-") ? -1 : 1;
  return [...spaces].sort((a, b) => {
    const order = field === "id" ? Number(a.id) - Number(b.id) : a[field].localeCompare(b[field]);
    return sign * order;
  });
}

export const getSpaceById = defineOperation({
  operationId: "getSpaceById",
  api: "confluence",
  method: "GET",
  path: "/wiki/api/v2/spaces/{id}",
  summary: "Returns one Confluence space by its numeric id (key, name, homepageId).",
  effect: "read",
  status: 200,
  params: z.object({
    id: numericId().describe("The numeric space id (from getSpaces, or a page's spaceId)."),
    "description-format": descriptionFormat,
    "include-icon": includeIcon,
    "include-operations": qBool().optional().describe("Include the operations the caller may perform."),
    "include-properties": qBool().optional().describe("Include space properties."),
    "include-permissions": qBool().optional().describe("Include space permissions."),
    "include-role-assignments": qBool().optional().describe("Include role assignments."),
    "include-labels": qBool().optional().describe("Include space labels."),
  }),
  handler: (site, { params }, ctx) => {
    const space = requireSpace(site, params.id);
    const self = `/wiki/api/v2/spaces/${space.id}`;
    const { _links, ...base } = presentSpace(space, {
      descriptionFormat: params["description-format"],
      includeIcon: params["include-icon"],
    });
    return {
      ...base,
      ...(params["include-labels"] ? { labels: included([], `${self}/labels`) } : {}),
      ...(params["include-properties"] ? { properties: included([], `${self}/properties`) } : {}),
      ...(params["include-permissions"] ? { permissions: included([], `${self}/permissions`) } : {}),
      ...(params["include-operations"]
        ? {
            operations: included(
              [
                { operation: "read", targetType: "space" },
                { operation: "create", targetType: "page" },
              ],
              `${self}/operations`,
            ),
          }
        : {}),
      _links: { ..._links, base: wikiBase(ctx.baseUrl) },
    };
  },
});

export const SPACE_OPERATIONS: readonly Operation[] = [getSpaces, getSpaceById];
