/**
 * Markdown → Atlassian Document Format, the way Atlassian's MCP servers take Jira descriptions and
 * comments: paragraphs, ATX headings, bullet and ordered lists (nested by indentation), fenced and
 * indented code blocks, block quotes, rules, and the inline marks of inline-markdown.ts. Lines of one
 * paragraph are joined with a space (a soft break); a line ending in two spaces or a backslash is a hard
 * break. Tables, HTML and images are kept as plain text.
 */
import type { AdfDocument, AdfNode } from "../../../sandbox/adf/types.ts";
import { parseInline } from "./inline-markdown.ts";

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^ {0,3}> ?/;
const ITEM = /^( *)([-*+]|\d{1,9}[.)])( +|$)/;

/**
 * Deepest nesting of block quotes and lists read as such; a quote or list item nested deeper stays
 * paragraph text (Markdown has no invalid input). Real text never comes close, and the bound keeps the
 * recursion off the call stack's limit and the ADF inside the site's 1000-level JSON nesting limit.
 */
export const MAX_BLOCK_DEPTH = 100;

export function markdownToAdf(markdown: string): AdfDocument {
  const lines = markdown.replace(/\r\n?/g, "\n").replace(/\t/g, "    ").split("\n");
  return { type: "doc", version: 1, content: blocks(lines) };
}

function blocks(lines: string[], depth = 0): AdfNode[] {
  const nest = depth < MAX_BLOCK_DEPTH;
  const out: AdfNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === "") {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const close = new RegExp(`^ {0,3}${fence[1]![0]}{${fence[1]!.length},}\\s*$`);
      let j = i + 1;
      while (j < lines.length && !close.test(lines[j]!)) j++;
      out.push(codeBlock(lines.slice(i + 1, j), fence[2]));
      i = j + 1;
      continue;
    }
    if (/^ {4}/.test(line)) {
      let j = i;
      while (j < lines.length && (/^ {4}/.test(lines[j]!) || lines[j]!.trim() === "")) j++;
      while (lines[j - 1]!.trim() === "") j--;
      out.push(codeBlock(lines.slice(i, j).map((l) => l.slice(4))));
      i = j;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const content = parseInline(heading[2] ?? "");
      out.push({ type: "heading", attrs: { level: heading[1]!.length }, content });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      out.push({ type: "rule" });
      i++;
      continue;
    }
    if (nest && QUOTE.test(line)) {
      let j = i;
      while (j < lines.length && QUOTE.test(lines[j]!)) j++;
      const inner = blocks(
        lines.slice(i, j).map((l) => l.replace(QUOTE, "")),
        depth + 1,
      );
      if (inner.length > 0) out.push({ type: "blockquote", content: inner });
      i = j;
      continue;
    }
    if (nest && ITEM.test(line)) {
      i = list(lines, i, out, depth);
      continue;
    }
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() !== "" && !startsBlock(lines[j]!)) j++;
    const paragraph = paragraphNode(lines.slice(i, j));
    if (paragraph) out.push(paragraph);
    i = j;
  }
  return out;
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || ITEM.test(line);
}

/** Parses the list starting at line `start` into `out`; returns the index after it. */
function list(lines: string[], start: number, out: AdfNode[], depth: number): number {
  const first = ITEM.exec(lines[start]!)!;
  const indent = first[1]!.length;
  const ordered = /\d/.test(first[2]!);
  const items: AdfNode[] = [];
  let i = start;
  while (i < lines.length) {
    // A blank line between two items of the same list (a loose list) does not end it.
    let k = i;
    while (k < lines.length && lines[k]!.trim() === "") k++;
    const marker = ITEM.exec(lines[k] ?? "");
    if (!marker || marker[1]!.length !== indent || /\d/.test(marker[2]!) !== ordered) break;
    const contentIndent = marker[0].length;
    const body = [lines[k]!.slice(contentIndent)];
    let j = k + 1;
    while (j < lines.length) {
      const next = lines[j]!;
      if (next.trim() === "") {
        const following = lines.slice(j + 1).find((l) => l.trim() !== "");
        if (following === undefined || indentOf(following) <= indent) break;
      } else if (indentOf(next) <= indent && (ITEM.test(next) || startsBlock(next) || body.at(-1) === ""))
        break;
      body.push(next.trim() === "" ? "" : dedent(next, Math.min(contentIndent, indentOf(next))));
      j++;
    }
    items.push({ type: "listItem", content: itemContent(body, depth + 1) });
    i = j;
  }
  const startAt = ordered ? Number.parseInt(first[2]!, 10) : 1;
  out.push({
    type: ordered ? "orderedList" : "bulletList",
    ...(ordered && startAt !== 1 ? { attrs: { order: startAt } } : {}),
    content: items,
  });
  return i;
}

/** An item's blocks; ADF list items hold paragraphs, lists and code blocks, and never nothing. */
function itemContent(lines: string[], depth: number): AdfNode[] {
  const content = blocks(lines, depth).filter((n) =>
    ["paragraph", "bulletList", "orderedList", "codeBlock"].includes(n.type),
  );
  return content.length > 0 ? content : [{ type: "paragraph", content: [] }];
}

function paragraphNode(lines: string[]): AdfNode | null {
  const content: AdfNode[] = [];
  lines.forEach((raw, k) => {
    const hard = /( {2,}|\\)$/.test(raw) && k < lines.length - 1;
    const text = raw.trim().replace(/\\$/, "");
    if (k > 0 && content.at(-1)?.type !== "hardBreak") content.push({ type: "text", text: " " });
    for (const node of parseInline(text)) content.push(node);
    if (hard) content.push({ type: "hardBreak" });
  });
  const merged = mergeText(content);
  return merged.length > 0 ? { type: "paragraph", content: merged } : null;
}

function codeBlock(lines: string[], language?: string): AdfNode {
  const text = lines.join("\n");
  return {
    type: "codeBlock",
    ...(language ? { attrs: { language } } : {}),
    content: text === "" ? [] : [{ type: "text", text }],
  };
}

const indentOf = (line: string) => /^ */.exec(line)![0].length;
const dedent = (line: string, n: number) => line.slice(n);

/** Joins neighbouring unmarked text nodes (the soft-break spaces with their lines). */
function mergeText(nodes: AdfNode[]): AdfNode[] {
  const out: AdfNode[] = [];
  for (const node of nodes) {
    const last = out.at(-1);
    if (last?.type === "text" && node.type === "text" && !last.marks && !node.marks)
      out[out.length - 1] = { type: "text", text: `${last.text}${node.text}` };
    else out.push(node);
  }
  return out;
}
