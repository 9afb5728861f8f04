/**
 * Runs a JQL query against a site: parse (syntax errors), require a search restriction (Jira's
 * enhanced search refuses unbounded queries), compile the restriction and the order (collecting every
 * field, operator, value and function problem into one 400), then filter and sort the issues.
 */
import type { Site } from "../../site.ts";
import type { Issue } from "../model.ts";
import type { JqlContext } from "./context.ts";
import { jqlError, semantic } from "./errors.ts";
import { compileWhere } from "./evaluate.ts";
import { compileOrder } from "./order.ts";
import { parseJql } from "./parse.ts";

/** The issues a query selects, in its order. Throws ApiError 400 for any problem with the query. */
export function searchIssues(site: Site, jql: string, accountId: string): Issue[] {
  const query = parseJql(jql);
  if (!query.where) throw jqlError([semantic.unbounded]);
  const ctx: JqlContext = { site, accountId, now: site.now(), errors: [] };
  const predicate = compileWhere(query.where, ctx);
  const comparator = compileOrder(query.orderBy, ctx);
  if (ctx.errors.length > 0) throw jqlError([...new Set(ctx.errors)]);
  return [...site.values("issues")].filter(predicate).sort(comparator);
}
