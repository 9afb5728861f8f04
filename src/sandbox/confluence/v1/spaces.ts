/**
 * Confluence v1 space reads as a presentation of v2 getSpaces: GET /wiki/rest/api/space (optionally
 * by `spaceKey`) and GET /wiki/rest/api/space/{spaceKey} (v1's 404 for an unknown key).
 */
import { z } from "zod";
import { confluenceV1Error } from "../../api-error.ts";
import { qInt32, qList } from "../../params.ts";
import type { Presentation } from "../../presentation.ts";
import { getSpaces as getSpacesV2 } from "../operations/spaces.ts";
import { expansions, presentV1Space, v1List } from "./present-content.ts";
import { cursorAt, parseV1, spaceNotFound, v1Failure, v1Limit } from "./v1-request.ts";

const listParams = z.looseObject({
  spaceKey: qList(z.string()).optional(),
  type: z.enum(["global", "personal"]).optional(),
  status: z.enum(["current", "archived"]).optional(),
  start: qInt32().pipe(z.number().min(0)).optional(),
  limit: v1Limit().optional(),
  expand: z.union([z.string(), z.array(z.string())]).optional(),
});

export const getSpaces: Presentation = {
  operationId: "getSpaces",
  api: "confluence-v1",
  method: "GET",
  path: "/wiki/rest/api/space",
  operation: getSpacesV2,
  request: (input) => {
    const p = parseV1(listParams, input.params, "params");
    const cursor = cursorAt(p.start ?? 0);
    return {
      params: {
        ...(p.spaceKey ? { keys: p.spaceKey } : {}),
        ...(p.type ? { type: p.type } : {}),
        ...(p.status ? { status: p.status } : {}),
        limit: p.limit ?? 25,
        ...(cursor ? { cursor } : {}),
      },
    };
  },
  response: (result, site, ctx, input) => {
    if (!result.ok) return v1Failure(result);
    const p = parseV1(listParams, input.params, "params");
    const body = result.body as { results: { id: string }[]; _links: { next?: string } };
    const expand = expansions(p.expand);
    const spaces = body.results.map((s) => presentV1Space(site.get("spaces", s.id)!, expand));
    const more = body._links.next !== undefined;
    const list = v1List(
      spaces,
      p.start ?? 0,
      p.limit ?? 25,
      more,
      ctx.baseUrl,
      "/rest/api/space",
      input.params,
    );
    return { ...result, body: list };
  },
};

export const getSpace: Presentation = {
  operationId: "getSpace",
  api: "confluence-v1",
  method: "GET",
  path: "/wiki/rest/api/space/{spaceKey}",
  operation: getSpacesV2,
  request: (input) => {
    const key = String(input.params.spaceKey ?? "");
    return { params: { keys: [key] } };
  },
  response: (result, site, _ctx, input) => {
    if (!result.ok) return v1Failure(result);
    const found = (result.body as { results: { id: string }[] }).results[0];
    const key = String(input.params.spaceKey);
    if (!found) {
      const error = confluenceV1Error(404, spaceNotFound(key));
      return { ok: false, status: 404, body: error.body, headers: {} };
    }
    const space = site.get("spaces", found.id)!;
    return { ...result, body: presentV1Space(space, expansions(input.params.expand)) };
  },
};

export const SPACE_PRESENTATIONS: readonly Presentation[] = [getSpaces, getSpace];
