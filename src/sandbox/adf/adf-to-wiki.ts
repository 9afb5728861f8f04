/**
 * ADF to Jira wiki markup (Jira REST v2's rich text), the inverse of wiki-to-adf.ts for its documented
 * subset. A mention comes out as `[~accountid:<id>]`; nodes outside the subset (tables, panels, emoji,
 * cards, …) come out as their plain text.
 */
import type { AdfDocument, AdfNode } from "./types.ts";

export function adfToWiki(doc: AdfDocument | AdfNode | null | undefined): string {
  if (!doc) return "";
  return blocks(doc.content ?? []).join("\n\n");
}

function blocks(nodes: AdfNode[]): string[] {
  return nodes.map(block).filter((b) => b !== "");
}

function block(node: AdfNode): string {
  switch (node.type) {
    case "paragraph":
      return inline(node.content ?? []);
    case "heading":
      return `h${Number(node.attrs?.level ?? 1)}. ${inline(node.content ?? [])}`;
    case "codeBlock": {
      const language = typeof node.attrs?.language === "string" ? `:${node.attrs.language}` : "";
      return `{code${language}}\n${plain(node)}\n{code}`;
    }
    case "bulletList":
    case "orderedList":
      return list(node, "").join("\n");
    default:
      return node.content ? blocks(node.content).join("\n\n") : inline([node]);
  }
}

function list(node: AdfNode, prefix: string): string[] {
  const marker = prefix + (node.type === "orderedList" ? "#" : "*");
  const lines: string[] = [];
  for (const item of node.content ?? []) {
    const [first, ...rest] = item.content ?? [];
    const nestedFirst = first && (first.type === "bulletList" || first.type === "orderedList");
    if (first && !nestedFirst) lines.push(`${marker} ${block(first).replace(/\n/g, " ")}`);
    for (const child of nestedFirst ? [first, ...rest] : rest) {
      if (child.type === "bulletList" || child.type === "orderedList") lines.push(...list(child, marker));
      else lines.push(`${marker} ${block(child).replace(/\n/g, " ")}`);
    }
  }
  return lines;
}

function inline(nodes: AdfNode[]): string {
  return nodes.map(inlineNode).join("");
}

function inlineNode(node: AdfNode): string {
  if (node.type === "hardBreak") return "\n";
  if (node.type === "mention" && typeof node.attrs?.id === "string") return `[~accountid:${node.attrs.id}]`;
  if (node.type !== "text") return plain(node);
  let value = node.text ?? "";
  const marks = node.marks ?? [];
  const has = (type: string) => marks.find((m) => m.type === type);
  if (has("code")) value = `{{${value}}}`;
  if (has("em")) value = `_${value}_`;
  if (has("strong")) value = `*${value}*`;
  const link = has("link");
  const href = link?.attrs?.href;
  if (typeof href === "string") value = value === href ? `[${href}]` : `[${value}|${href}]`;
  return value;
}

/** The plain text of any node: text, mention/emoji/date/status text, inline card URLs. */
function plain(node: AdfNode): string {
  if (node.type === "text") return node.text ?? "";
  if (node.type === "hardBreak") return "\n";
  const attrs = node.attrs ?? {};
  for (const key of ["text", "shortName", "url"])
    if (typeof attrs[key] === "string") return attrs[key] as string;
  return (node.content ?? []).map(plain).join("");
}
