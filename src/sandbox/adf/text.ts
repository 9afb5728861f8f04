/** Plain-text extraction from ADF documents (for JQL `text ~` and `summary ~`, and for rewards). */
import type { AdfNode } from "./types.ts";

export function adfToText(node: AdfNode | null | undefined): string {
  if (!node) return "";
  if (node.type === "text") return node.text ?? "";
  const parts = (node.content ?? []).map(adfToText);
  const block = node.type === "paragraph" || node.type === "heading" || node.type === "listItem";
  return block ? `${parts.join("")}\n` : parts.join("");
}
