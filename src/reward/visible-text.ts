/**
 * Visible text: what a reader sees of a rich-text value, whatever representation the API accepted (an
 * ADF document, a page body in storage XHTML or atlas_doc_format). Comments, processing instructions,
 * macro parameters, resource identifiers, placeholders, scripts, styles and hidden elements do not
 * count. User mentions count in neither representation (storage holds only an account id; an
 * expectation checks them as `mentions`). Blocks are separated by a space; `normalizeText` then trims
 * and collapses whitespace runs, the one normalisation every comparison uses.
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

/** The visible text of an ADF document (mentions left out, as in storage). */
export function adfText(doc: unknown): string {
  if (!doc || typeof doc !== "object") return "";
  return normalizeText(adfToText(withMentionText(doc as AdfNode)));
}

function withMentionText(node: AdfNode): AdfNode {
  if (node.type === "mention") return { type: "text", text: " " };
  if (node.type === "emoji" || node.type === "date" || node.type === "status")
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

/** The account ids a rich-text value mentions (ADF mention nodes, storage `ri:user` links), sorted. */
export function mentionsOf(value: unknown): string[] {
  const ids = new Set<string>();
  const fromAdf = (node: unknown) => {
    if (!node || typeof node !== "object") return;
    const n = node as AdfNode;
    if (n.type === "mention" && typeof n.attrs?.id === "string") ids.add(n.attrs.id);
    for (const child of n.content ?? []) fromAdf(child);
  };
  const body = value as { representation?: unknown; value?: unknown } | null;
  if (body && body.representation === "storage" && typeof body.value === "string") {
    for (const m of body.value.matchAll(/ri:account-id\s*=\s*"([^"]+)"/g)) ids.add(m[1]!);
  } else if (body && typeof body.representation === "string" && typeof body.value === "string") {
    try {
      fromAdf(JSON.parse(body.value));
    } catch {
      // not ADF: no mentions
    }
  } else fromAdf(value);
  return [...ids].sort();
}
