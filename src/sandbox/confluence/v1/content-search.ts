/**
 * GET /wiki/rest/api/content/search (searchContentByCQL) as a presentation of the CQL search
 * (searchByCQL): the same query and matches, answered as a v1 ContentArray of the matching pages with
 * `expand`. atlassian-python-api's `update_or_create` and `get_page_by_title` paths call it.
 */
import { z } from "zod";
import { qInt32 } from "../../params.ts";
import type { Presentation } from "../../presentation.ts";
import { searchByCQL } from "../operations/search.ts";
import { expansions, presentContent, v1List } from "./present-content.ts";
import { parseV1 } from "./v1-request.ts";

const params = z.looseObject({
  cql: z.string().optional(),
  cqlcontext: z.string().optional(),
  cursor: z.string().optional(),
  start: qInt32().pipe(z.number().min(0)).optional(),
  limit: qInt32().pipe(z.number().min(0)).optional(),
  expand: z.union([z.string(), z.array(z.string())]).optional(),
});

type SearchAnswer = {
  results: { entityType: string; content?: { id: string } }[];
  start: number;
  limit: number;
  _links: { next?: string };
};

export const searchContentByCQL: Presentation = {
  operationId: "searchContentByCQL",
  api: "confluence-v1",
  method: "GET",
  path: "/wiki/rest/api/content/search",
  operation: searchByCQL,
  request: (input) => {
    const { expand: _expand, ...p } = parseV1(params, input.params, "params");
    return { params: { ...p, excerpt: "none" } };
  },
  response: (result, site, ctx, input) => {
    if (!result.ok) return result;
    const body = result.body as SearchAnswer;
    const expand = expansions(parseV1(params, input.params, "params").expand);
    const pages = body.results.flatMap((r) => {
      const page = r.entityType === "content" && r.content ? site.get("pages", r.content.id) : undefined;
      return page ? [presentContent(site, page, expand)] : [];
    });
    const more = body._links.next !== undefined;
    const answer = v1List(pages, body.start, body.limit, more, ctx.baseUrl, "/rest/api/content/search", {
      ...input.params,
    });
    return { ...result, body: answer };
  },
};
