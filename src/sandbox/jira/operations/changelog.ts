/**
 * Issue history (jira/history.ts) as Jira's changelog endpoints give it: getChangeLogs, one issue's
 * PageBeanChangelog (`GET /rest/api/3/issue/{key}/changelog`, oldest first, `startAt`/`maxResults` pages of
 * at most 100), and getBulkChangelogs, the entries of up to 1000 issues at once
 * (`POST /rest/api/3/changelog/bulkfetch`: oldest first, then by issue id, optionally only the items of up
 * to 10 fields, pages of `maxResults` entries linked by a nextPageToken).
 */
import { z } from "zod";
import { defineOperation, type Operation } from "../../define-operation.ts";
import { qInt32 } from "../../params.ts";
import { historyOf } from "../history.ts";
import { decodePageToken, encodePageToken } from "../jql/page-token.ts";
import type { IssueChange } from "../model.ts";
import { CHANGELOG_PAGE_CAP, presentChange } from "../present-changelog.ts";
import { findIssue } from "../store.ts";
import { requireIssue } from "./issues.ts";

const nonNegative = (what: string) =>
  qInt32()
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

export const getBulkChangelogs = defineOperation({
  operationId: "getBulkChangelogs",
  api: "jira",
  method: "POST",
  path: "/rest/api/3/changelog/bulkfetch",
  summary:
    "Returns the history of up to 1000 issues at once, oldest change first, optionally only the changes to some fields (up to 10 field ids).",
  effect: "read",
  status: 200,
  params: z.object({}),
  body: z.strictObject({
    issueIdsOrKeys: z
      .array(z.string())
      .min(1)
      .max(1000)
      .describe("Keys (e.g. ENG-12) or ids of the issues; issues that do not exist are left out."),
    fieldIds: z
      .array(z.string())
      .max(10)
      .refine((ids) => new Set(ids).size === ids.length, "fieldIds must not repeat a field id")
      .nullish()
      .describe(
        "Only changes to these fields (e.g. status, assignee), each entry keeping only their items; none or [] for all.",
      ),
    maxResults: z.number().int().min(1).max(10_000).nullish().describe("Entries per page (default 1000)."),
    nextPageToken: z.string().nullish().describe("The token of the previous page, for the next one."),
  }),
  handler: (site, { body }, ctx) => {
    const issues = [...new Set(body.issueIdsOrKeys.map((idOrKey) => findIssue(site, idOrKey.trim())))];
    const fields = body.fieldIds?.length ? new Set(body.fieldIds) : null;
    const entries: { issueId: string; change: IssueChange }[] = [];
    for (const issue of issues) {
      if (!issue) continue;
      for (const change of historyOf(site, issue.id)) {
        const items = fields ? change.items.filter((item) => fields.has(item.fieldId)) : change.items;
        if (items.length > 0) entries.push({ issueId: issue.id, change: { ...change, items } });
      }
    }
    entries.sort((a, b) => a.change.created - b.change.created || Number(a.issueId) - Number(b.issueId));
    // The token is bound to the request it continues (the issues and fields asked for).
    const query = JSON.stringify([body.issueIdsOrKeys, fields === null ? null : body.fieldIds]);
    const start = body.nextPageToken == null ? 0 : decodePageToken(body.nextPageToken, query);
    const end = start + (body.maxResults ?? 1000);
    const byIssue = new Map<string, ReturnType<typeof presentChange>[]>();
    for (const { issueId, change } of entries.slice(start, end)) {
      const list = byIssue.get(issueId) ?? [];
      list.push(presentChange(site, ctx.baseUrl, change));
      byIssue.set(issueId, list);
    }
    return {
      issueChangeLogs: [...byIssue].map(([issueId, changeHistories]) => ({ issueId, changeHistories })),
      ...(end < entries.length ? { nextPageToken: encodePageToken(query, end) } : {}),
    };
  },
});

export const CHANGELOG_OPERATIONS: readonly Operation[] = [getChangeLogs, getBulkChangelogs];
