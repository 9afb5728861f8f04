/**
 * Jira REST v2 as a presentation of the v3 operations: the same handlers and state under `/rest/api/2`,
 * with v2's rich-text fields (issue description and environment, comment bodies) as wiki-markup strings
 * in and out, converted to and from the stored ADF (a `[~accountid:<id>]` mention becomes a mention node
 * with the person's "@Display Name", and back), and self links pointing at `/rest/api/2`.
 */
import { adfToWiki } from "../adf/adf-to-wiki.ts";
import type { AdfDocument } from "../adf/types.ts";
import { type WikiOptions, wikiToAdf } from "../adf/wiki-to-adf.ts";
import { jiraError } from "../api-error.ts";
import type { Operation } from "../define-operation.ts";
import type { OperationResult } from "../execute.ts";
import type { Presentation } from "../presentation.ts";
import type { Site } from "../site.ts";

const V3 = "/rest/api/3/";
const V2 = "/rest/api/2/";
const RICH_FIELDS = ["description", "environment"] as const;

/**
 * Top-level answer keys that v2's published document does not have (it predates them; v2 clients page
 * JQL results by nextPageToken alone).
 */
const NOT_IN_V2: Record<string, string[]> = {
  searchAndReconsileIssuesUsingJql: ["isLast"],
  searchAndReconsileIssuesUsingJqlPost: ["isLast"],
};

/** The v2 presentation of every Jira v3 operation. */
export function restV2Presentations(operations: readonly Operation[]): Presentation[] {
  return operations
    .filter((op) => op.api === "jira" && op.path.startsWith(V3))
    .map((op) => ({
      operationId: op.operationId,
      api: "jira",
      method: op.method,
      path: V2 + op.path.slice(V3.length),
      operation: op,
      request: (input, site) => ({ params: input.params, body: wikiBodyToAdf(input.body, site) }),
      response: (result, _site, ctx) =>
        withoutKeys(presentV2(result, ctx.baseUrl), NOT_IN_V2[op.operationId]),
    }));
}

/** Converts the wiki-markup strings of a v2 request body to ADF, wherever v2 carries rich text. */
export function wikiBodyToAdf(body: unknown, site?: Site): unknown {
  if (!isRecord(body)) return body;
  rejectNonStringRichText(body);
  const options: WikiOptions = {
    displayName: (accountId) => site?.get("users", accountId)?.displayName ?? null,
  };
  // An empty comment stays empty, so the operation answers Jira's "can not be empty"; an empty field is cleared.
  const commentDoc = (wiki: string) => (wiki.trim() === "" ? "" : wikiToAdf(wiki, options));
  const fieldDoc = (wiki: string) => (wiki.trim() === "" ? null : wikiToAdf(wiki, options));
  const out: Record<string, unknown> = { ...body };
  if (typeof out.body === "string") out.body = commentDoc(out.body);
  if (isRecord(out.comment) && typeof out.comment.body === "string")
    out.comment = { ...out.comment, body: commentDoc(out.comment.body) };
  if (isRecord(out.fields)) {
    const fields: Record<string, unknown> = { ...out.fields };
    for (const name of RICH_FIELDS)
      if (typeof fields[name] === "string") fields[name] = fieldDoc(fields[name]);
    out.fields = fields;
  }
  if (isRecord(out.update)) {
    const update: Record<string, unknown> = { ...out.update };
    for (const name of RICH_FIELDS)
      if (Array.isArray(update[name]))
        update[name] = update[name].map((op: unknown) =>
          isRecord(op) && typeof op.set === "string" ? { ...op, set: fieldDoc(op.set) } : op,
        );
    if (Array.isArray(update.comment))
      update.comment = update.comment.map((op: unknown) =>
        isRecord(op) && isRecord(op.add) && typeof op.add.body === "string"
          ? { ...op, add: { ...op.add, body: commentDoc(op.add.body) } }
          : op,
      );
    out.update = update;
  }
  return out;
}

/**
 * v2 carries rich text as wiki-markup strings only: an ADF document or any other non-string value where
 * v2 expects one is refused as Jira v2 refuses it (400, the field named), before anything changes.
 */
function rejectNonStringRichText(body: Record<string, unknown>): void {
  const errors: Record<string, string> = {};
  const check = (name: string, value: unknown) => {
    if (value !== undefined && value !== null && typeof value !== "string")
      errors[name] = "Operation value must be a string";
  };
  if ("body" in body) check("comment", body.body);
  if (isRecord(body.comment)) check("comment", body.comment.body);
  if (isRecord(body.fields)) for (const name of RICH_FIELDS) check(name, body.fields[name]);
  if (isRecord(body.update))
    for (const name of RICH_FIELDS) {
      const ops = body.update[name];
      if (Array.isArray(ops)) for (const op of ops) if (isRecord(op)) check(name, op.set);
    }
  if (isRecord(body.update) && Array.isArray(body.update.comment))
    for (const op of body.update.comment) if (isRecord(op) && isRecord(op.add)) check("comment", op.add.body);
  if (Object.keys(errors).length > 0) throw jiraError(400, [], errors);
}

/** A v3 request body as a v2 client sends it: every ADF document as wiki markup (the inverse of wikiBodyToAdf). */
export function adfBodyToWiki(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(adfBodyToWiki);
  if (!isRecord(body)) return body;
  if (isAdfDoc(body)) return adfToWiki(body);
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, adfBodyToWiki(value)]));
}

/** A v3 answer as v2 gives it: every ADF document as wiki markup, self links on /rest/api/2. */
export function presentV2(result: OperationResult, baseUrl: string): OperationResult {
  if (result.body === undefined) return result;
  return { ...result, body: toV2(result.body, `${baseUrl}${V3}`, `${baseUrl}${V2}`) };
}

function withoutKeys(result: OperationResult, keys: string[] | undefined): OperationResult {
  if (!keys || !isRecord(result.body)) return result;
  const body = { ...result.body };
  for (const key of keys) delete body[key];
  return { ...result, body };
}

function toV2(value: unknown, v3: string, v2: string): unknown {
  if (typeof value === "string") return value.startsWith(v3) ? v2 + value.slice(v3.length) : value;
  if (Array.isArray(value)) return value.map((item) => toV2(item, v3, v2));
  if (!isRecord(value)) return value;
  if (isAdfDoc(value)) return adfToWiki(value);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = toV2(item, v3, v2);
  return out;
}

function isAdfDoc(value: Record<string, unknown>): value is AdfDocument & Record<string, unknown> {
  return value.type === "doc" && value.version === 1 && Array.isArray(value.content);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
