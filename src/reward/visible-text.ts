/**
 * Visible text: what a reader sees of a rich-text value, whatever representation the API accepted (an
 * ADF document, a page body in storage XHTML or atlas_doc_format). Comments, processing instructions,
 * macro parameters, resource identifiers, placeholders, scripts, styles and hidden elements do not
 * count. Blocks are separated by a space; `normalizeText` then trims and collapses whitespace runs, the
 * one normalisation every comparison uses.
 */
import { adfToText } from "../sandbox/adf/text.ts";
import type { AdfNode } from "../sandbox/adf/types.ts";
import { parseXhtml, type XNode } from "../sandbox/adf/xhtml.ts";

/** Trims and collapses internal whitespace runs (including non-breaking spaces) to one space. */
export const normalizeText = (text: string): string => text.replace(/[\s\u00a0]+/g, " ").trim();

/** Storage elements whose content a reader never sees. */
const INVISIBLE = new Set([
  "ac:parameter",
  "ac:placeholder",
  "ac:adf-fallback",
  "ri:page",
  "ri:attachment",
  "ri:user",
  "ri:url",
  "ri:space",
  "script",
  "style",
  "head",
  "title",
  "template",
]);

const BLOCK =
  /^(p|h[1-6]|li|ul|ol|div|table|tr|td|th|blockquote|pre|br|hr|ac:structured-macro|ac:rich-text-body|ac:task|ac:task-body)$/;

/** The visible text of a storage (XHTML) body; unparseable storage has none. */
export function storageText(value: string): string {
  const parsed = parseXhtml(value);
  if (!parsed.ok) return "";
  const out: string[] = [];
  const walk = (nodes: XNode[]) => {
    for (const node of nodes) {
      if (node.kind === "text") {
        out.push(node.text);
        continue;
      }
      if (INVISIBLE.has(node.name) || isHidden(node.attrs)) continue;
      const block = BLOCK.test(node.name);
      if (block) out.push(" ");
      walk(node.children);
      if (block) out.push(" ");
    }
  };
  walk(parsed.nodes);
  return normalizeText(out.join(""));
}

function isHidden(attrs: Record<string, string>): boolean {
  if ("hidden" in attrs || attrs["aria-hidden"] === "true") return true;
  const style = (attrs.style ?? "").replace(/\s+/g, "").toLowerCase();
  return style.includes("display:none") || style.includes("visibility:hidden");
}

/** The visible text of an ADF document (mentions by their display text). */
export function adfText(doc: unknown): string {
  if (!doc || typeof doc !== "object") return "";
  return normalizeText(adfToText(withMentionText(doc as AdfNode)));
}

function withMentionText(node: AdfNode): AdfNode {
  if (node.type === "mention" || node.type === "emoji" || node.type === "date" || node.type === "status")
    return { type: "text", text: String(node.attrs?.text ?? "") };
  if (node.type === "hardBreak") return { type: "text", text: " " };
  if (!node.content) return node;
  const content = node.content.map(withMentionText);
  // Cells and other blocks without a trailing newline in adfToText still separate their text.
  return /^(tableCell|tableHeader|tableRow|listItem|blockquote|codeBlock|panel)$/.test(node.type)
    ? { ...node, content: [...content, { type: "text", text: " " }] }
    : { ...node, content };
}

/**
 * The visible text of a stored rich-text value: an ADF document, a page body `{representation, value}`
 * (storage or atlas_doc_format), or a plain string (as written). Null and absent are the empty text.
 */
export function richText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return normalizeText(value);
  if (typeof value !== "object") return normalizeText(String(value));
  const body = value as { representation?: unknown; value?: unknown; type?: unknown };
  if (typeof body.representation === "string" && typeof body.value === "string") {
    if (body.representation === "storage") return storageText(body.value);
    try {
      return adfText(JSON.parse(body.value));
    } catch {
      return "";
    }
  }
  return body.type === "doc" ? adfText(value) : "";
}

/**
 * The account ids a rich-text value mentions, as a sorted set: ADF `mention` nodes, or `ri:user` account
 * ids in a storage body.
 */
export function mentionedAccounts(value: unknown): string[] {
  const ids = new Set<string>();
  const walk = (node: AdfNode | undefined) => {
    if (!node || typeof node !== "object") return;
    if (node.type === "mention" && typeof node.attrs?.id === "string") ids.add(node.attrs.id);
    for (const child of node.content ?? []) walk(child);
  };
  const body = value as { representation?: unknown; value?: unknown } | null;
  if (body && typeof body.representation === "string" && typeof body.value === "string") {
    if (body.representation === "storage")
      for (const m of body.value.matchAll(/ri:account-id="([^"]+)"/g)) ids.add(m[1]!);
    else
      try {
        walk(JSON.parse(body.value) as AdfNode);
      } catch {
        // unparseable atlas_doc_format mentions nobody
      }
  } else walk(value as AdfNode);
  return [...ids].sort();
}
