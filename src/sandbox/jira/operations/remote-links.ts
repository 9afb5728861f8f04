/**
 * Jira remote issue links (web links on an issue): getRemoteIssueLinks (all, or one by globalId) and
 * createOrUpdateRemoteIssueLink, which updates the link with the same globalId (unsent fields become
 * null) and otherwise creates one.
 */
import { z } from "zod";
import { jiraError } from "../../api-error.ts";
import { defineOperation, type Operation, Reply } from "../../define-operation.ts";
import type { RemoteLink, RemoteLinkObject } from "../model.ts";
import { presentRemoteLink, remoteLinkSelf } from "../present-remote-link.ts";
import { requireIssue } from "./issues.ts";

const issueIdOrKey = z.string().min(1).describe("The issue key (e.g. ENG-12) or numeric id.");

const icon = z.object({
  url16x16: z.string().optional().describe("URL of a 16x16 icon."),
  title: z.string().optional().describe("Tooltip of the icon."),
  link: z.string().optional(),
});

export const getRemoteIssueLinks = defineOperation({
  operationId: "getRemoteIssueLinks",
  api: "jira",
  method: "GET",
  path: "/rest/api/3/issue/{issueIdOrKey}/remotelink",
  summary: "Lists an issue's remote (web) links, or returns the one with the given globalId.",
  effect: "read",
  status: 200,
  params: z.object({
    issueIdOrKey,
    globalId: z.string().optional().describe("Return only the link with this global id (a single object)."),
  }),
  handler: (site, { params }, ctx) => {
    const issue = requireIssue(site, params.issueIdOrKey);
    const links = [...site.values("remoteLinks")].filter((l) => l.issueId === issue.id);
    if (params.globalId === undefined) return links.map((l) => presentRemoteLink(site, ctx.baseUrl, l));
    const link = links.find((l) => l.globalId === params.globalId);
    if (!link)
      throw jiraError(404, [
        `No remote issue link with global ID '${params.globalId}' exists on this issue.`,
      ]);
    return presentRemoteLink(site, ctx.baseUrl, link);
  },
});

/** Returns the field errors Jira reports for a remote link's object, or null when it is valid. */
function objectErrors(object: { url?: string; title?: string }): Record<string, string> | null {
  const errors: Record<string, string> = {};
  if (object.url === undefined || object.url.trim() === "") errors.url = "'url' is required.";
  else if (!isHttpUrl(object.url)) errors.url = "'url' is not a valid URL.";
  if (object.title === undefined || object.title.trim() === "") errors.title = "'title' is required.";
  return Object.keys(errors).length > 0 ? errors : null;
}

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    return new URL(value).hostname !== "";
  } catch {
    return false;
  }
}

export const createOrUpdateRemoteIssueLink = defineOperation({
  operationId: "createOrUpdateRemoteIssueLink",
  api: "jira",
  method: "POST",
  path: "/rest/api/3/issue/{issueIdOrKey}/remotelink",
  summary:
    "Adds a web link (URL and title) to an issue; with a globalId that already exists on the issue, replaces that link instead.",
  effect: "write",
  status: 201,
  params: z.object({ issueIdOrKey }),
  // What Atlassian's own Confluence integration sets (globalId "appId=…&pageId=…", the application,
  // "mentioned in"): an identifier and integration metadata, free for the agent to choose.
  fieldClasses: { table: "remoteLinks", metadata: ["globalId", "application", "relationship"] },
  body: z.looseObject({
    globalId: z
      .string()
      .optional()
      .describe(
        "Your stable id for the linked item; sending it again updates that link instead of adding one.",
      ),
    application: z
      .looseObject({
        type: z.string().optional().describe("Namespaced application type, e.g. com.atlassian.confluence."),
        name: z.string().optional().describe("Application name, e.g. Confluence."),
      })
      .optional()
      .describe("The application the linked item lives in."),
    relationship: z
      .string()
      .optional()
      .describe("How the item relates to the issue, e.g. 'mentioned in' (shown as 'links to' if unset)."),
    object: z
      .looseObject({
        url: z.string().optional().describe("Absolute http(s) URL of the item (required)."),
        title: z.string().optional().describe("Title shown for the link (required)."),
        summary: z.string().optional().describe("A short summary of the item."),
        icon: icon.optional().describe("Icon shown beside the link."),
        status: z
          .object({ resolved: z.boolean().optional(), icon: icon.optional() })
          .optional()
          .describe("Whether the linked item is resolved (shown struck through)."),
      })
      .describe("The linked item: url and title are required."),
  }),
  handler: (site, { params, body }, ctx) => {
    const issue = requireIssue(site, params.issueIdOrKey);
    const errors = objectErrors(body.object);
    if (errors) throw jiraError(400, [], errors);
    const { url, title, summary, icon: objectIcon, status } = body.object;
    const object: RemoteLinkObject = { url: url!, title: title! };
    if (summary !== undefined) object.summary = summary;
    if (objectIcon !== undefined) object.icon = objectIcon;
    if (status !== undefined) object.status = status;
    const globalId = body.globalId ?? null;
    const existing =
      globalId === null
        ? undefined
        : [...site.values("remoteLinks")].find((l) => l.issueId === issue.id && l.globalId === globalId);
    const link: RemoteLink = {
      id: existing?.id ?? site.nextId("remoteLink", 10000),
      issueId: issue.id,
      globalId,
      application: body.application ? pickDefined(body.application, ["type", "name"]) : null,
      relationship: body.relationship ?? null,
      object,
    };
    site.put("remoteLinks", String(link.id), link);
    const answer = { id: link.id, self: remoteLinkSelf(site, ctx.baseUrl, link) };
    return existing ? new Reply(200, answer) : answer;
  },
});

function pickDefined<T extends object, K extends keyof T>(value: T, keys: K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) if (value[key] !== undefined) picked[key] = value[key];
  return picked;
}

export const REMOTE_LINK_OPERATIONS: readonly Operation[] = [
  getRemoteIssueLinks,
  createOrUpdateRemoteIssueLink,
];
