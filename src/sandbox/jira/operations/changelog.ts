/**
 * getChangeLogs: an issue's history (jira/history.ts) as `GET /rest/api/3/issue/{key}/changelog` gives it,
 * a PageBeanChangelog, oldest first, `startAt`/`maxResults` pages of at most 100.
 */
import { z } from "zod";
import { defineOperation, type Operation } from "../../define-operation.ts";
import { qInt } from "../../params.ts";
import { historyOf } from "../history.ts";
import { CHANGELOG_PAGE_CAP, presentChange } from "../present-changelog.ts";
import { requireIssue } from "./issues.ts";

const nonNegative = (what: string) =>
  qInt()
    .refine((n) => n >= 0, `${what} must not be negative`)
    .optional();

export const getChangeLogs = defineOperation({
  operationId: "getChangeLogs",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/issue/{issueIdOrKey}/changelog",
  summary:
    "Returns an issue's history, oldest first: who changed which fields (status, assignee, summary, labels...) and when, a page at a time.",
  effect: "read",
  status: 200,
  params: z.object({
    issueIdOrKey: z.string().min(1).describe("The issue key (e.g. ENG-12) or numeric id."),
    startAt: nonNegative("startAt").describe("Index of the first entry to return (default 0)."),
    maxResults: nonNegative("maxResults").describe("Entries per page (default and most 100)."),
  }),
  handler: (site, { params }, ctx) => {
    const issue = requireIssue(site, params.issueIdOrKey);
    const histories = historyOf(site, issue.id);
    const startAt = params.startAt ?? 0;
    const maxResults = Math.min(params.maxResults ?? CHANGELOG_PAGE_CAP, CHANGELOG_PAGE_CAP);
    const values = histories.slice(startAt, startAt + maxResults);
    const next = startAt + values.length;
    const self = `${ctx.baseUrl}/rest/api/3/issue/${issue.key}/changelog`;
    return {
      self: `${self}?maxResults=${maxResults}&startAt=${startAt}`,
      // maxResults=0 asks only for the total: no next page, which would be this one again.
      ...(next < histories.length && maxResults > 0
        ? { nextPage: `${self}?maxResults=${maxResults}&startAt=${next}` }
        : {}),
      maxResults,
      startAt,
      total: histories.length,
      isLast: next >= histories.length,
      values: values.map((change) => presentChange(site, ctx.baseUrl, change)),
    };
  },
});

export const CHANGELOG_OPERATIONS: readonly Operation[] = [getChangeLogs];
