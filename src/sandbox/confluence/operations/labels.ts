/**
 * Page labels. v2 can only read them (getPageLabels); writes go through the v1 REST API, as every real
 * client does: getLabelsForContent, addLabelsToContent (a single label or an array; lower-cased; adding
 * an existing label is a no-op), removeLabelFromContentUsingQueryParameter and removeLabelFromContent.
 */
import { z } from "zod";
import { confluenceV1Error } from "../../api-error.ts";
import { defineOperation, type Operation } from "../../define-operation.ts";
import { lookupId, numericId, qInt32 } from "../../params.ts";
import type { Site } from "../../site.ts";
import { checkLabelName, checkLabelPrefix, parseLabelRef } from "../label-rules.ts";
import { requireContent, requirePage } from "../lookup.ts";
import type { PageLabel } from "../model.ts";
import { cursorParam, limitParam, paginate, queryOf } from "../pagination.ts";
import { presentLabel, presentV1Label, wikiBase } from "../present.ts";
import { attachLabel, labelKey, labelsOf } from "../store.ts";

const LABEL_SORTS = ["created-date", "-created-date", "id", "-id", "name", "-name"] as const;

export const getPageLabels = defineOperation({
  operationId: "getPageLabels",
  api: "confluence",
  method: "GET",
  path: "/wiki/api/v2/pages/{id}/labels",
  summary: "Lists the labels of a Confluence page.",
  effect: "read",
  status: 200,
  params: z.object({
    id: numericId().describe("The numeric page id."),
    prefix: z.enum(["my", "team", "global", "system"]).optional().describe("Only labels with this prefix."),
    sort: z.enum(LABEL_SORTS).optional().describe("Sort order; default the order labels were added."),
    cursor: cursorParam(),
    limit: limitParam(),
  }),
  handler: (site, { params }, ctx) => {
    const page = requirePage(site, params.id);
    const labels = labelsOf(site, page.id).filter((l) => !params.prefix || l.prefix === params.prefix);
    const list = paginate(sortLabels(labels, params.sort ?? "created-date"), {
      cursor: params.cursor,
      limit: params.limit,
      path: `/wiki/api/v2/pages/${page.id}/labels`,
      query: queryOf(params, "id"),
      base: wikiBase(ctx.baseUrl),
    });
    return { results: list.results.map(presentLabel), _links: list._links };
  },
});

function sortLabels(labels: PageLabel[], sort: (typeof LABEL_SORTS)[number]): PageLabel[] {
  const sign = sort.startsWith("-") ? -1 : 1;
  if (sort.endsWith("created-date")) return sign === 1 ? labels : [...labels].reverse();
  const byName = sort.endsWith("name");
  return [...labels].sort(
    (a, b) => sign * (byName ? a.name.localeCompare(b.name) : Number(a.labelId) - Number(b.labelId)),
  );
}

const contentId = () => lookupId().describe("The numeric page (content) id; the same as the v2 page id.");

/** A v1 LabelArray of a page's labels. */
/** The most labels a v1 label list answers (also its default), as Cloud's fixed limit caps it. */
const V1_LABEL_CAP = 200;

function labelArray(baseUrl: string, pageId: string, labels: PageLabel[], start = 0, limit = V1_LABEL_CAP) {
  const results = labels.slice(start, start + limit).map(presentV1Label);
  const self = `${wikiBase(baseUrl)}/rest/api/content/${pageId}/label`;
  const more = limit > 0 && start + limit < labels.length;
  return {
    results,
    start,
    limit,
    size: results.length,
    _links: {
      base: wikiBase(baseUrl),
      context: "/wiki",
      self,
      ...(more ? { next: `/rest/api/content/${pageId}/label?limit=${limit}&start=${start + limit}` } : {}),
    },
  };
}

export const getLabelsForContent = defineOperation({
  operationId: "getLabelsForContent",
  api: "confluence-v1",
  method: "GET",
  path: "/wiki/rest/api/content/{id}/label",
  summary: "Lists the labels of a Confluence page (v1 API).",
  effect: "read",
  status: 200,
  params: z.object({
    id: contentId(),
    prefix: z.enum(["global", "my", "team"]).optional().describe("Only labels with this prefix."),
    start: qInt32().pipe(z.number().min(0)).optional().describe("Index of the first label to return."),
    limit: qInt32()
      .pipe(z.number().min(0))
      .transform((limit) => Math.min(limit, V1_LABEL_CAP))
      .optional()
      .describe("Maximum labels to return (default and most 200; more is answered with 200)."),
  }),
  handler: (site, { params }, ctx) => {
    const page = requireContent(site, params.id);
    const labels = labelsOf(site, page.id).filter((l) => !params.prefix || l.prefix === params.prefix);
    return labelArray(ctx.baseUrl, page.id, labels, params.start ?? 0, params.limit ?? V1_LABEL_CAP);
  },
});

const labelCreate = z.looseObject({
  prefix: z.string().describe("global (usual), my or team."),
  name: z
    .string()
    .describe("The label, e.g. 'runbook'; lower-cased; no spaces or any of : ; , . ? & [ ] ( ) # ^ * @ ! '"),
});

export const addLabelsToContent = defineOperation({
  operationId: "addLabelsToContent",
  api: "confluence-v1",
  method: "POST",
  path: "/wiki/rest/api/content/{id}/label",
  summary:
    "Adds labels to a Confluence page (v1 API; v2 cannot write labels). Existing labels are kept; answers all labels of the page.",
  effect: "write",
  status: 200,
  params: z.object({ id: contentId() }),
  body: z
    .union([z.array(labelCreate), labelCreate], {
      error:
        'the body must be a label {prefix, name} or an array of them, e.g. [{"prefix":"global","name":"runbook"}]',
    })
    .describe("[{prefix: 'global', name: 'runbook'}, ...] or a single {prefix, name}."),
  handler: (site, { params, body }, ctx) => {
    const page = requireContent(site, params.id);
    const wanted = (Array.isArray(body) ? body : [body]).map((l) => ({
      prefix: checkLabelPrefix(l.prefix),
      name: checkLabelName(l.name),
    }));
    for (const { prefix, name } of wanted) attachLabel(site, page.id, prefix, name);
    return labelArray(ctx.baseUrl, page.id, labelsOf(site, page.id));
  },
});

function removeLabel(site: Site, pageId: string, raw: string): undefined {
  const page = requireContent(site, pageId);
  if (page.status === "archived")
    throw confluenceV1Error(400, "Labels can't be deleted from archived content.");
  const { prefix, name } = parseLabelRef(raw);
  const key = labelKey(page.id, prefix, name);
  if (!site.get("pageLabels", key))
    throw confluenceV1Error(404, `Label '${raw}' was not found on content with id ${page.id}.`);
  site.remove("pageLabels", key);
  return undefined;
}

export const removeLabelFromContentUsingQueryParameter = defineOperation({
  operationId: "removeLabelFromContentUsingQueryParameter",
  api: "confluence-v1",
  method: "DELETE",
  path: "/wiki/rest/api/content/{id}/label",
  summary: "Removes a label from a Confluence page, naming it in the query (use for names containing '/').",
  effect: "write",
  status: 204,
  params: z.object({
    id: contentId(),
    name: z
      .string()
      .min(1)
      .describe("The label to remove, e.g. 'runbook' (or 'team:runbook' for another prefix)."),
  }),
  handler: (site, { params }) => removeLabel(site, params.id, params.name),
});

export const removeLabelFromContent = defineOperation({
  operationId: "removeLabelFromContent",
  api: "confluence-v1",
  method: "DELETE",
  path: "/wiki/rest/api/content/{id}/label/{label}",
  summary: "Removes a label from a Confluence page.",
  effect: "write",
  status: 204,
  params: z.object({
    id: contentId(),
    label: z.string().min(1).describe("The label to remove, e.g. 'runbook' (or 'team:runbook')."),
  }),
  handler: (site, { params }) => {
    if (params.label.includes("/"))
      throw confluenceV1Error(
        400,
        "Label names containing '/' cannot be removed with this path; use the query parameter form (?name=).",
      );
    return removeLabel(site, params.id, params.label);
  },
});

export const LABEL_OPERATIONS: readonly Operation[] = [
  getPageLabels,
  getLabelsForContent,
  addLabelsToContent,
  removeLabelFromContentUsingQueryParameter,
  removeLabelFromContent,
];
