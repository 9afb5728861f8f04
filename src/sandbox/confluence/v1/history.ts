/**
 * GET /wiki/rest/api/content/{id}/history (getHistoryForContent) as a presentation of getPageById:
 * atlassian-python-api reads `lastUpdated.number` here before every page update.
 */
import { z } from "zod";
import { lookupId } from "../../params.ts";
import type { Presentation } from "../../presentation.ts";
import { getPageById } from "../operations/pages.ts";
import { presentHistory } from "./present-content.ts";
import { contentNotFound, parseV1, requireContentId, v1Failure } from "./v1-request.ts";

const params = z.looseObject({ id: lookupId() });

export const getHistoryForContent: Presentation = {
  operationId: "getHistoryForContent",
  api: "confluence-v1",
  method: "GET",
  path: "/wiki/rest/api/content/{id}/history",
  operation: getPageById,
  request: (input) => ({ params: { id: requireContentId(parseV1(params, input.params, "params").id) } }),
  response: (result, site, _ctx, input) => {
    const id = String(input.params.id);
    if (!result.ok) return v1Failure(result, contentNotFound(id));
    return { ...result, body: presentHistory(site, site.get("pages", id)!) };
  },
};
