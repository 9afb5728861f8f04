/**
 * Page bodies: the write schema (flat `{representation, value}` or nested `{storage: {...}}`), the
 * checks Confluence makes on write (storage must be well-formed XHTML, atlas_doc_format must be an ADF
 * document encoded as a JSON string), and rendering a stored body in the `body-format` a read asks for.
 */
import { z } from "zod";
import { adfToStorage } from "../adf/adf-to-storage.ts";
import { storageToAdf } from "../adf/storage-to-adf.ts";
import type { AdfNode } from "../adf/types.ts";
import { validateAdf } from "../adf/validate.ts";
import { parseXhtml } from "../adf/xhtml.ts";
import { confluenceError } from "../api-error.ts";
import { parseJson } from "../parse-json.ts";
import type { PageBody } from "./model.ts";

const representation = z
  .enum(["storage", "atlas_doc_format", "wiki"])
  .describe(
    "storage = Confluence XHTML (e.g. '<p>Hello</p>'); atlas_doc_format = an ADF document JSON-encoded as a string.",
  );

const bodyWrite = z.looseObject({
  representation: representation.optional(),
  value: z.string().optional().describe("The body in that representation (ADF must be a JSON string)."),
});

/** The `body` field of createPage and updatePage. */
export const pageBodyWriteSchema = z
  .looseObject({
    representation: representation.optional(),
    value: z
      .string()
      .optional()
      .describe("The page content in that representation; for atlas_doc_format a JSON-encoded ADF doc."),
    storage: bodyWrite.optional().describe("Nested form: {storage: {representation: 'storage', value}}."),
    atlas_doc_format: bodyWrite.optional().describe("Nested form for an ADF body."),
    wiki: bodyWrite.optional(),
  })
  .describe(
    "Page content: {representation: 'storage', value: '<p>Text</p>'} or {representation: 'atlas_doc_format', value: '<ADF JSON string>'}.",
  );

export type PageBodyWrite = z.output<typeof pageBodyWriteSchema>;

export const EMPTY_BODY: PageBody = { representation: "storage", value: "" };

/** Validates a body from a write and returns it as stored; bad bodies are Confluence 400s. */
export function parseBodyWrite(body: PageBodyWrite): PageBody {
  const { rep, value } = pickRepresentation(body);
  if (rep === "wiki")
    throw confluenceError(
      400,
      "The 'wiki' representation is not supported: send the body as 'storage' (XHTML) or 'atlas_doc_format' (ADF JSON string).",
      "INVALID_REQUEST_PARAMETER",
    );
  if (rep === "storage") {
    const parsed = parseXhtml(value);
    if (!parsed.ok) throw confluenceError(400, parsed.message, "INVALID_REQUEST_PARAMETER");
    return { representation: "storage", value };
  }
  let doc: unknown;
  try {
    doc = parseJson(value); // under the nesting limit of every JSON body
  } catch {
    throw confluenceError(
      400,
      "Invalid atlas_doc_format body: value must be an ADF document encoded as a JSON string.",
      "INVALID_REQUEST_PARAMETER",
    );
  }
  const problem = validateAdf(doc);
  if (problem)
    throw confluenceError(400, `Invalid atlas_doc_format body: ${problem}`, "INVALID_REQUEST_PARAMETER");
  return { representation: "atlas_doc_format", value };
}

function pickRepresentation(body: PageBodyWrite): {
  rep: "storage" | "atlas_doc_format" | "wiki";
  value: string;
} {
  if (body.representation !== undefined) {
    if (body.value === undefined) throw bodyError("Body 'value' is required with 'representation'.");
    return { rep: body.representation, value: body.value };
  }
  const nested = (["storage", "atlas_doc_format", "wiki"] as const).filter((k) => body[k] !== undefined);
  if (nested.length !== 1)
    throw bodyError(
      nested.length === 0
        ? "Body must have a 'representation' (storage or atlas_doc_format) and a 'value'."
        : "Only one body format may be specified.",
    );
  const rep = nested[0]!;
  const inner = body[rep]!;
  if (inner.representation !== undefined && inner.representation !== rep)
    throw bodyError(`Body '${rep}' has representation '${inner.representation}'.`);
  if (inner.value === undefined) throw bodyError(`Body '${rep}.value' is required.`);
  return { rep, value: inner.value };
}

function bodyError(title: string) {
  return confluenceError(400, title, "INVALID_REQUEST_PARAMETER");
}

/** Read formats a page can be asked for (`body-format`). */
export const BODY_FORMATS = [
  "storage",
  "atlas_doc_format",
  "view",
  "export_view",
  "anonymous_export_view",
  "styled_view",
  "editor",
] as const;
export type BodyFormat = (typeof BODY_FORMATS)[number];

/** `{<format>: {representation, value}}` for a stored body, converting between storage and ADF. */
export function renderBody(
  body: PageBody,
  format: BodyFormat,
): Record<string, { representation: string; value: string }> {
  return { [format]: { representation: format, value: bodyValue(body, format) } };
}

export function bodyValue(body: PageBody, format: BodyFormat): string {
  if (format === "atlas_doc_format") {
    return body.representation === "atlas_doc_format" ? body.value : JSON.stringify(storageToAdf(body.value));
  }
  if (body.representation === "storage") return body.value;
  return adfToStorage(JSON.parse(body.value) as AdfNode);
}
