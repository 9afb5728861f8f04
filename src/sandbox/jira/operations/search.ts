/**
 * JQL search: the enhanced `/rest/api/3/search/jql` endpoint, GET (query parameters) and POST (the
 * SearchAndReconcileRequestBean body). Both answer `{issues, isLast, nextPageToken?}`: no total, an
 * opaque token for the next page (absent on the last), and issues carrying only `id` unless `fields`
 * asks for more.
 *
 * Page size: `maxResults` (default 50) must be 1–5000. Jira returns up to 5000 issues per page when only
 * `id`/`key` are requested and fewer when fields are; this site caps such pages at 100 issues.
 *
 * `POST /rest/api/3/search/approximate-count` (countIssues) counts what the same JQL finds: `{count}`.
 */
import { z } from "zod";
import { jiraError } from "../../api-error.ts";
import { defineOperation, type OperationContext } from "../../define-operation.ts";
import { qBool, qInt, qInt32, qList } from "../../params.ts";
import type { Site } from "../../site.ts";
import { FIELD_NAMES } from "../fields.ts";
import { decodePageToken, encodePageToken } from "../jql/page-token.ts";
import { searchIssues } from "../jql/query.ts";
import type { Issue } from "../model.ts";
import { presentIssue } from "./issues.ts";
import { presentTransitions } from "./transitions-present.ts";

export const MAX_RESULTS_RANGE = "The maxResults parameter must be between 1 and 5,000.";

/** The most issues per page when only ids (or keys) are requested, and when fields are. */
export const ID_PAGE_CAP = 5000;
export const FIELDS_PAGE_CAP = 100;

interface SearchRequest {
  jql?: string | null;
  nextPageToken?: string | null;
  /** null in a body: absent, as Jira's JSON reader gives a boxed Integer field (the default page size). */
  maxResults?: number | null;
  fields?: string[];
  expand?: string;
}

const describe = {
  jql: 'The JQL query, e.g. `project = ENG AND status = "In Progress" ORDER BY created DESC`. It must restrict the search (a query with only ORDER BY is refused). Without ORDER BY, newest first. Users are named by accountId (from findUsers) or currentUser(); text is searched with ~ (e.g. `summary ~ "login timeout"`).',
  nextPageToken:
    "The nextPageToken from the previous page of the same query; omit it for the first page. The last page has none.",
  maxResults:
    "Issues per page, 1-5000 (default 50). Pages that return fields other than id/key hold at most 100 issues.",
  fields:
    "Fields to return for each issue, e.g. ['summary','status','assignee']; '*all' or '*navigable' for many; '-field' excludes. Default: 'id' only (each issue then carries just its id).",
  expand:
    "Comma-separated expansions: 'names' (display name of each returned field), 'transitions' and 'changelog' (per issue).",
  properties: "Issue properties to include (up to 5); this site stores none.",
  fieldsByKeys: "Reference fields by key rather than id (the same here: the site has no custom fields).",
  failFast: "Fail early if some field data cannot be retrieved (never happens here).",
  reconcileIssues:
    "Up to 50 issue ids to reconcile for read-after-write consistency (the site is always consistent).",
};

function runSearch(site: Site, request: SearchRequest, ctx: OperationContext) {
  const jql = request.jql ?? "";
  const offset = request.nextPageToken ? decodePageToken(request.nextPageToken, jql) : 0;
  const maxResults = request.maxResults ?? 50;
  if (maxResults < 1 || maxResults > ID_PAGE_CAP) throw jiraError(400, [MAX_RESULTS_RANGE]);
  const found = searchIssues(site, jql, ctx.accountId);
  const tokens = (request.fields ?? [])
    .flatMap((f) => f.split(","))
    .map((f) => f.trim())
    .filter(Boolean);
  const idOnly = tokens.every((t) => t === "id");
  const light = tokens.every((t) => t === "id" || t === "key");
  const page = found.slice(offset, offset + Math.min(maxResults, light ? ID_PAGE_CAP : FIELDS_PAGE_CAP));
  const expand = (request.expand ?? "").split(",").map((e) => e.trim());
  const issues = page.map((issue) =>
    idOnly
      ? idBean(issue, expand, ctx)
      : presentIssue(
          site,
          ctx.baseUrl,
          issue,
          tokens,
          expand.filter((e) => e !== "names"),
          "id",
        ),
  );
  const next = offset + page.length;
  const result: Record<string, unknown> = { issues, isLast: next >= found.length };
  if (next < found.length) result.nextPageToken = encodePageToken(jql, next);
  if (expand.includes("names")) result.names = namesOf(issues);
  return result;
}

function idBean(issue: Issue, expand: string[], ctx: OperationContext): Record<string, unknown> {
  const bean: Record<string, unknown> = { id: issue.id };
  if (expand.includes("transitions")) bean.transitions = presentTransitions(ctx.baseUrl, issue, false);
  return bean;
}

function namesOf(issues: Record<string, unknown>[]): Record<string, string> {
  const names: Record<string, string> = {};
  for (const issue of issues)
    for (const key of Object.keys((issue.fields as object | undefined) ?? {}))
      names[key] = FIELD_NAMES[key] ?? key;
  return names;
}

/** `expand` is one comma-delimited string; a repeated parameter (or a JSON array) is joined. */
const expandParam = z.preprocess((v) => (Array.isArray(v) ? v.join(",") : v), z.string());

export const searchAndReconsileIssuesUsingJql = defineOperation({
  operationId: "searchAndReconsileIssuesUsingJql",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/search/jql",
  summary:
    "Searches for issues with JQL; returns a page of issues (ids only unless fields are requested) and a nextPageToken.",
  effect: "read",
  status: 200,
  params: z.object({
    jql: z.string().optional().describe(describe.jql),
    nextPageToken: z.string().optional().describe(describe.nextPageToken),
    maxResults: qInt32().optional().describe(describe.maxResults),
    fields: qList(z.string()).optional().describe(describe.fields),
    expand: expandParam.optional().describe(describe.expand),
    properties: qList(z.string()).optional().describe(describe.properties),
    fieldsByKeys: qBool().optional().describe(describe.fieldsByKeys),
    failFast: qBool().optional().describe(describe.failFast),
    reconcileIssues: qList(qInt()).optional().describe(describe.reconcileIssues),
  }),
  handler: (site, { params }, ctx) => runSearch(site, params, ctx),
});

export const searchAndReconsileIssuesUsingJqlPost = defineOperation({
  operationId: "searchAndReconsileIssuesUsingJqlPost",
  api: "jira",
  method: "POST",
  path: "/rest/api/3/search/jql",
  summary: "Searches for issues with JQL (query in the body); returns a page of issues and a nextPageToken.",
  effect: "read",
  status: 200,
  params: z.object({}),
  body: z.strictObject({
    jql: z.string().nullish().describe(describe.jql),
    nextPageToken: z.string().nullish().describe(describe.nextPageToken),
    maxResults: qInt32().nullish().describe(describe.maxResults),
    fields: z.array(z.string()).optional().describe(describe.fields),
    expand: z.string().optional().describe(describe.expand),
    properties: z.array(z.string()).optional().describe(describe.properties),
    fieldsByKeys: z.boolean().optional().describe(describe.fieldsByKeys),
    reconcileIssues: z.array(z.number().int()).optional().describe(describe.reconcileIssues),
  }),
  handler: (site, { body }, ctx) => runSearch(site, body, ctx),
});

/** countIssues: how many issues a bounded JQL query matches (Cloud's count is approximate; here exact). */
export const countIssues = defineOperation({
  operationId: "countIssues",
  api: "jira",
  method: "POST",
  path: "/rest/api/3/search/approximate-count",
  summary: "Counts the issues a JQL query matches (the query must restrict the search); returns {count}.",
  effect: "read",
  status: 200,
  params: z.object({}),
  body: z.strictObject({ jql: z.string().nullish().describe(describe.jql) }),
  handler: (site, { body }, ctx) => ({ count: searchIssues(site, body.jql ?? "", ctx.accountId).length }),
});

export const SEARCH_OPERATIONS = [
  searchAndReconsileIssuesUsingJql,
  searchAndReconsileIssuesUsingJqlPost,
  countIssues,
];
