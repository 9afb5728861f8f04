/**
 * Converts Confluence storage format (XHTML) to an ADF document, for reading a storage-written page
 * with `body-format=atlas_doc_format`. Covers what agents write: paragraphs, headings, lists, quotes,
 * rules, code blocks (`<pre>` and the code macro), panels, tables, strong/em/underline/strike/code,
 * links, line breaks and user mentions. Unknown elements are unwrapped so their text is never lost.
 */
import type { AdfDocument, AdfNode } from "./types.ts";
import { parseXhtml, type XElement, type XNode } from "./xhtml.ts";

type Mark = NonNullable<AdfNode["marks"]>[number];

const MARK_TAGS: Record<string, Mark> = {
  strong: { type: "strong" },
  b: { type: "strong" },
  em: { type: "em" },
  i: { type: "em" },
  u: { type: "underline" },
  s: { type: "strike" },
  del: { type: "strike" },
  strike: { type: "strike" },
  code: { type: "code" },
  sub: { type: "subsup", attrs: { type: "sub" } },
  sup: { type: "subsup", attrs: { type: "sup" } },
};

const PANELS: Record<string, string> = { info: "info", note: "note", warning: "warning", tip: "success" };

const BLOCK_TAGS = new Set([
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "li",
  "pre",
  "blockquote",
  "hr",
  "table",
  "div",
  "section",
  "ac:structured-macro",
  "ac:layout",
  "ac:layout-section",
  "ac:layout-cell",
  "ac:task-list",
]);

/** The ADF document for a storage body; a body that does not parse becomes one paragraph of its text. */
export function storageToAdf(storage: string): AdfDocument {
  const parsed = parseXhtml(storage);
  if (!parsed.ok) {
    const text = storage.trim();
    return { type: "doc", version: 1, content: text ? [paragraph([{ type: "text", text }])] : [] };
  }
  return { type: "doc", version: 1, content: blocks(parsed.nodes) };
}

function paragraph(content: AdfNode[]): AdfNode {
  return content.length > 0 ? { type: "paragraph", content } : { type: "paragraph" };
}

/** Block-level conversion; loose inline content between blocks is gathered into paragraphs. */
function blocks(nodes: XNode[]): AdfNode[] {
  const out: AdfNode[] = [];
  let pending: XNode[] = [];
  const flush = () => {
    const content = trimInline(inline(pending, []));
    if (content.length > 0) out.push(paragraph(content));
    pending = [];
  };
  for (const node of nodes) {
    if (node.kind === "element" && BLOCK_TAGS.has(node.name.toLowerCase())) {
      flush();
      out.push(...block(node));
    } else pending.push(node);
  }
  flush();
  return out;
}

function block(el: XElement): AdfNode[] {
  const name = el.name.toLowerCase();
  const heading = /^h([1-6])$/.exec(name);
  if (heading) {
    const content = trimInline(inline(el.children, []));
    return [
      { type: "heading", attrs: { level: Number(heading[1]) }, ...(content.length ? { content } : {}) },
    ];
  }
  switch (name) {
    case "p":
      return [paragraph(trimInline(inline(el.children, [])))];
    case "ul":
    case "ol":
      return [{ type: name === "ul" ? "bulletList" : "orderedList", content: listItems(el.children) }];
    case "li":
      return [{ type: "bulletList", content: listItems([el]) }];
    case "pre":
      return [codeBlock(textOf(el), undefined)];
    case "blockquote":
      return [{ type: "blockquote", content: nonEmpty(blocks(el.children)) }];
    case "hr":
      return [{ type: "rule" }];
    case "table":
      return [{ type: "table", content: tableRows(el.children) }];
    case "ac:structured-macro":
      return macro(el);
    default:
      return blocks(el.children);
  }
}

function listItems(nodes: XNode[]): AdfNode[] {
  const items: AdfNode[] = [];
  for (const node of nodes) {
    if (node.kind === "text" && node.text.trim() === "") continue;
    const children = node.kind === "element" && node.name.toLowerCase() === "li" ? node.children : [node];
    items.push({ type: "listItem", content: nonEmpty(blocks(children)) });
  }
  return items;
}

function tableRows(nodes: XNode[]): AdfNode[] {
  const rows: AdfNode[] = [];
  for (const node of nodes) {
    if (node.kind !== "element") continue;
    const name = node.name.toLowerCase();
    if (name === "tbody" || name === "thead" || name === "tfoot") rows.push(...tableRows(node.children));
    else if (name === "tr") {
      const cells = node.children.filter((c): c is XElement => c.kind === "element");
      rows.push({
        type: "tableRow",
        content: cells.map((cell) => ({
          type: cell.name.toLowerCase() === "th" ? "tableHeader" : "tableCell",
          content: nonEmpty(blocks(cell.children)),
        })),
      });
    }
  }
  return rows;
}

function macro(el: XElement): AdfNode[] {
  const kind = el.attrs["ac:name"] ?? "";
  const part = (name: string) =>
    el.children.find((c): c is XElement => c.kind === "element" && c.name === name);
  const param = (name: string) =>
    el.children.find(
      (c): c is XElement => c.kind === "element" && c.name === "ac:parameter" && c.attrs["ac:name"] === name,
    );
  if (kind === "code" || kind === "noformat") {
    const body = part("ac:plain-text-body");
    const language = param("language");
    return [codeBlock(body ? textOf(body) : "", language ? textOf(language).trim() : undefined)];
  }
  const rich = part("ac:rich-text-body");
  const panelType = PANELS[kind];
  if (panelType)
    return [{ type: "panel", attrs: { panelType }, content: nonEmpty(blocks(rich?.children ?? [])) }];
  if (kind === "expand") {
    const title = param("title");
    return [
      {
        type: "expand",
        attrs: { title: title ? textOf(title) : "" },
        content: nonEmpty(blocks(rich?.children ?? [])),
      },
    ];
  }
  return rich ? blocks(rich.children) : [];
}

function codeBlock(text: string, language: string | undefined): AdfNode {
  return {
    type: "codeBlock",
    ...(language ? { attrs: { language } } : {}),
    ...(text ? { content: [{ type: "text", text }] } : {}),
  };
}

/** Inline conversion: text with the marks of its enclosing elements, line breaks, mentions. */
function inline(nodes: XNode[], marks: Mark[]): AdfNode[] {
  const out: AdfNode[] = [];
  for (const node of nodes) {
    if (node.kind === "text") {
      const text = node.cdata ? node.text : node.text.replace(/\s+/g, " ");
      if (text) out.push(textNode(text, marks));
      continue;
    }
    const name = node.name.toLowerCase();
    const mark = MARK_TAGS[name];
    if (mark) out.push(...inline(node.children, withMark(marks, mark)));
    else if (name === "a") {
      const href = node.attrs.href;
      out.push(...inline(node.children, href ? withMark(marks, { type: "link", attrs: { href } }) : marks));
    } else if (name === "br") out.push({ type: "hardBreak" });
    else if (name === "ac:link") out.push(...confluenceLink(node, marks));
    else if (name === "ac:emoticon") out.push(textNode(`:${node.attrs["ac:name"] ?? "smile"}:`, marks));
    else if (name === "time" && node.attrs.datetime) out.push(textNode(node.attrs.datetime, marks));
    else out.push(...inline(node.children, marks));
  }
  return out;
}

function confluenceLink(el: XElement, marks: Mark[]): AdfNode[] {
  const target = el.children.find((c): c is XElement => c.kind === "element" && c.name.startsWith("ri:"));
  const accountId = target?.attrs["ri:account-id"];
  if (target?.name === "ri:user" && accountId) return [{ type: "mention", attrs: { id: accountId } }];
  const body = el.children.find(
    (c): c is XElement =>
      c.kind === "element" && (c.name === "ac:plain-text-link-body" || c.name === "ac:link-body"),
  );
  const text = body ? textOf(body) : (target?.attrs["ri:content-title"] ?? "");
  return text ? [textNode(text, marks)] : [];
}

function textNode(text: string, marks: Mark[]): AdfNode {
  // ADF allows the code mark only together with link.
  const allowed = marks.some((m) => m.type === "code")
    ? marks.filter((m) => m.type === "code" || m.type === "link")
    : marks;
  return allowed.length > 0 ? { type: "text", text, marks: allowed } : { type: "text", text };
}

function withMark(marks: Mark[], mark: Mark): Mark[] {
  return marks.some((m) => m.type === mark.type) ? marks : [...marks, mark];
}

/** Drops leading/trailing whitespace of a paragraph (storage indentation is not content). */
function trimInline(nodes: AdfNode[]): AdfNode[] {
  const out = [...nodes];
  const first = out[0];
  if (first?.type === "text") out[0] = { ...first, text: first.text!.replace(/^\s+/, "") };
  const lastIndex = out.length - 1;
  const last = out[lastIndex];
  if (last?.type === "text") out[lastIndex] = { ...last, text: last.text!.replace(/\s+$/, "") };
  return out.filter((n) => n.type !== "text" || n.text !== "");
}

function nonEmpty(content: AdfNode[]): AdfNode[] {
  return content.length > 0 ? content : [{ type: "paragraph" }];
}

function textOf(node: XNode): string {
  return node.kind === "text" ? node.text : node.children.map(textOf).join("");
}
