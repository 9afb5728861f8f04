/**
 * The Confluence tools of Atlassian's Rovo (Remote) MCP server (tool surface: docs/mcp.md): numeric space and page ids, page bodies in Markdown unless `contentFormat` says otherwise, and
 * updates that take the current version from the site (the server handles versions). Rovo has no label
 * tools, so scenarios that need Confluence labels are not covered by this set.
 */
import { z } from "zod";
import type { ToolSpec } from "../define-tool.ts";
import { pageBody } from "./content.ts";
import { defineAlias, defined, fromBody, fromParams } from "./define-alias.ts";
import { cloudId } from "./rovo-jira.ts";

const contentFormat = z
  .enum(["markdown", "adf"])
  .optional()
  .describe("Format of `body`: markdown (default) or adf (an ADF document or its JSON text).");

const pageId = z.union([z.string(), z.number()]).transform(String).describe("The numeric page id.");

export const ROVO_CONFLUENCE_TOOLS: readonly ToolSpec[] = [
  defineAlias({
    name: "getConfluenceSpaces",
    operationId: "getSpaces",
    description: "List Confluence spaces (ids, keys, names), optionally only those with the given keys.",
    args: z.object({
      cloudId,
      ...fromParams("getSpaces", "keys", "ids", "type", "status", "limit", "cursor"),
    }),
    map: ({ cloudId: _, ...params }) => ({ params: defined(params), body: undefined }),
  }),
  defineAlias({
    name: "getPagesInConfluenceSpace",
    operationId: "getPages",
    description: "List the pages of a Confluence space (by numeric space id), optionally only one title.",
    args: z.object({
      cloudId,
      spaceId: z
        .union([z.string(), z.number()])
        .transform(String)
        .describe("Numeric space id (from getConfluenceSpaces)."),
      ...fromParams("getPages", "title", "status", "sort", "limit", "cursor"),
    }),
    map: ({ cloudId: _, spaceId, ...rest }) => ({
      params: defined({ "space-id": [spaceId], ...rest }),
      body: undefined,
    }),
  }),
  defineAlias({
    name: "getConfluencePage",
    operationId: "getPageById",
    description: "Get a Confluence page with its body (storage XHTML for markdown, ADF for adf).",
    args: z.object({ cloudId, pageId, contentFormat }),
    map: ({ pageId, contentFormat }) => ({
      params: { id: pageId, "body-format": contentFormat === "adf" ? "atlas_doc_format" : "storage" },
      body: undefined,
    }),
  }),
  defineAlias({
    name: "getConfluencePageDescendants",
    operationId: "getChildPages",
    description: "List the child pages of a Confluence page.",
    args: z.object({ cloudId, pageId, ...fromParams("getChildPages", "limit", "cursor") }),
    map: ({ pageId, limit, cursor }) => ({ params: defined({ id: pageId, limit, cursor }), body: undefined }),
  }),
  defineAlias({
    name: "createConfluencePage",
    operationId: "createPage",
    description: "Create a Confluence page in a space (numeric space id), optionally under a parent page.",
    args: z.object({
      cloudId,
      spaceId: z
        .union([z.string(), z.number()])
        .transform(String)
        .describe("Numeric space id (from getConfluenceSpaces)."),
      title: z.string().describe("Page title, unique in the space."),
      body: z.unknown().describe("Page content, in Markdown unless contentFormat is adf."),
      parentId: z
        .union([z.string(), z.number()])
        .transform(String)
        .optional()
        .describe("Numeric id of the parent page."),
      ...fromBody("createPage", "subtype"),
      isPrivate: z.boolean().optional().describe("Create the page as private."),
      contentFormat,
    }),
    map: (a) => ({
      params: defined({ private: a.isPrivate }),
      body: defined({
        spaceId: a.spaceId,
        status: "current",
        title: a.title,
        parentId: a.parentId,
        subtype: a.subtype,
        body: pageBody(a.body, a.contentFormat),
      }),
    }),
  }),
  defineAlias({
    name: "updateConfluencePage",
    operationId: "updatePage",
    description:
      "Replace the body (and optionally the title) of a Confluence page; the version is handled for you.",
    args: z.object({
      cloudId,
      pageId,
      body: z.unknown().describe("The new page content, in Markdown unless contentFormat is adf."),
      title: z.string().optional().describe("A new title (default: keep the current one)."),
      versionMessage: z.string().optional().describe("A note on this version."),
      contentFormat,
    }),
    map: (a, site) => {
      const page = site.get("pages", a.pageId);
      return {
        params: { id: a.pageId },
        body: {
          id: a.pageId,
          status: "current",
          title: a.title ?? page?.title ?? "",
          body: pageBody(a.body, a.contentFormat),
          version: defined({ number: (page?.version.number ?? 0) + 1, message: a.versionMessage }),
        },
      };
    },
  }),
];
