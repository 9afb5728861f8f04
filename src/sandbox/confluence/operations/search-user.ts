/**
 * Confluence v1 user search, searchUser (`GET /wiki/rest/api/search/user?cql=...`): finds site users by
 * `user.fullname ~ "text"` (any word of the name starts with the text), `user.accountid = "id"` or
 * `type = user` (everyone). Other CQL is v1's 400.
 */
import { z } from "zod";
import { confluenceV1Error } from "../../api-error.ts";
import { confluenceTime, SITE_EPOCH_MS } from "../../clock.ts";
import { defineOperation, type Operation } from "../../define-operation.ts";
import type { JiraUser } from "../../jira/model.ts";
import { byDisplayName, userMatchesQuery } from "../../jira/user-query.ts";
import { qInt32 } from "../../params.ts";
import { wikiBase } from "../present.ts";
import { presentV1User } from "../v1/present-content.ts";

const CLAUSE = /^\s*user\.(fullname|accountid)\s*(~|=)\s*"((?:[^"\\]|\\.)*)"\s*$/i;
const EVERYONE = /^\s*type\s*=\s*"?user"?\s*$/i;

function matcher(cql: string): (user: JiraUser) => boolean {
  if (EVERYONE.test(cql)) return () => true;
  const clause = CLAUSE.exec(cql);
  if (!clause)
    throw confluenceV1Error(
      400,
      `Could not parse cql : ${cql}. Search users with user.fullname~"name", user.accountid="id" or type=user.`,
    );
  const value = clause[3]!.replace(/\\(.)/g, "$1");
  if (clause[1]!.toLowerCase() === "accountid") return (u) => u.accountId === value;
  return (u) => userMatchesQuery(u, value);
}

export const searchUser = defineOperation({
  operationId: "searchUser",
  api: "confluence-v1",
  method: "GET",
  path: "/wiki/rest/api/search/user",
  summary: 'Finds Confluence users with CQL, e.g. user.fullname~"Priya" (returns accountIds).',
  effect: "read",
  status: 200,
  params: z.object({
    cql: z.string().describe('The user query: user.fullname~"text", user.accountid="id" or type=user.'),
    start: qInt32().pipe(z.number().min(0)).optional().describe("Index of the first result."),
    limit: qInt32().pipe(z.number().min(0)).optional().describe("Maximum results (default 25)."),
    expand: z.union([z.string(), z.array(z.string())]).optional(),
    sitePermissionTypeFilter: z.enum(["all", "externalCollaborator", "none"]).optional(),
  }),
  handler: (site, { params }, ctx) => {
    const matches = matcher(params.cql);
    const found = [...site.values("users")].filter((u) => u.active && matches(u)).sort(byDisplayName);
    const start = params.start ?? 0;
    const limit = Math.min(params.limit ?? 25, 1000);
    const results = found.slice(start, start + limit);
    return {
      results: results.map((u) => ({
        user: presentV1User(site, u.accountId),
        title: u.displayName,
        excerpt: "",
        url: `/people/${u.accountId}`,
        breadcrumbs: [],
        entityType: "user",
        iconCssClass: "aui-icon content-type-profile",
        lastModified: confluenceTime(SITE_EPOCH_MS),
        score: 0,
      })),
      start,
      limit,
      size: results.length,
      totalSize: found.length,
      cqlQuery: params.cql,
      searchDuration: 0,
      _links: {
        base: wikiBase(ctx.baseUrl),
        context: "/wiki",
        self: `${wikiBase(ctx.baseUrl)}/rest/api/search/user?cql=${encodeURIComponent(params.cql)}`,
        // As the other v1 lists: the next page, relative to the base, while there is one.
        ...(start + results.length < found.length && limit > 0
          ? {
              next: `/rest/api/search/user?cql=${encodeURIComponent(params.cql)}&limit=${limit}&start=${start + limit}`,
            }
          : {}),
      },
    };
  },
});

export const SEARCH_USER_OPERATIONS: readonly Operation[] = [searchUser];
