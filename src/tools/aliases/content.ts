/**
 * Rich-text arguments of alias tools: Markdown by default, converted the way the Atlassian MCP servers
 * do (to ADF for Jira descriptions and comments, to storage XHTML for Confluence page bodies), or passed
 * through in the format the caller names. What cannot be converted is passed on unchanged, so the
 * operation rejects it with the vendor's own message.
 */
import { z } from "zod";
import { markdownToAdf } from "./markdown/markdown-to-adf.ts";
import { markdownToStorage } from "./markdown/markdown-to-storage.ts";

/** A Jira rich-text value (description, comment) in `format`, as the ADF document the REST API takes. */
export function jiraDocument(value: unknown, format: "markdown" | "adf" = "markdown"): unknown {
  if (typeof value !== "string") return value;
  if (format === "markdown") return markdownToAdf(value);
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

export type PageFormat = "markdown" | "storage" | "adf" | "wiki";

/** A Confluence page body in `format`, as the v2 API's `{representation, value}`. */
export function pageBody(value: unknown, format: PageFormat = "markdown"): unknown {
  if (format === "adf")
    return {
      representation: "atlas_doc_format",
      value: typeof value === "string" ? value : JSON.stringify(value),
    };
  if (typeof value !== "string") return value;
  if (format === "markdown") return { representation: "storage", value: markdownToStorage(value) };
  return { representation: format, value };
}

/** A JSON object given as an object or as JSON text (mcp-atlassian's `fields`, `additional_fields`). */
export const jsonObject = (description: string) =>
  z
    .union([z.record(z.string(), z.unknown()), z.string()])
    .transform((value, ctx) => {
      if (typeof value !== "string") return value;
      try {
        const parsed: unknown = JSON.parse(value);
        if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
          return parsed as Record<string, unknown>;
      } catch {}
      ctx.addIssue({ code: "custom", message: "must be a JSON object (or its JSON text)" });
      return z.NEVER;
    })
    .describe(description);
