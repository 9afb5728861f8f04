/**
 * Jira wiki markup (the rich-text format of Jira REST v2) to ADF, for the documented subset:
 * paragraphs (single newlines become hard breaks), headings `h1.`–`h6.`, `*bold*`, `_italic_`,
 * `{{monospace}}`, `{code[:lang]}…{code}`, bullet (`*`) and numbered (`#`) lists with nesting, links
 * `[text|url]` / `[url]`, and user mentions `[~accountid:<id>]` (a `mention` node whose `text` is
 * "@<display name>" when the caller knows the account, as Jira Cloud stores it). Anything else is kept as
 * plain text.
 */
import type { AdfDocument, AdfNode } from "./types.ts";

type Mark = NonNullable<AdfNode["marks"]>[number];

const HEADING = /^h([1-6])\.\s+(.*)$/;
const LIST_ITEM = /^([*#]+)\s+(.*)$/;
const CODE_OPEN = /^\{code(?::([\w+#.-]+))?[^}]*\}(.*)$/;

export interface WikiOptions {
  /** The display name of an account, for a mention's "@Name" text; null when the account is unknown. */
  displayName?: (accountId: string) => string | null;
}

export function wikiToAdf(wiki: string, options: WikiOptions = {}): AdfDocument {
  const inline = (source: string) => merge(parse(source, [], options));
  const lines = wiki.replace(/\r\n?/g, "\n").split("\n");
  const content: AdfNode[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) content.push(paragraphOf(paragraph, inline));
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const code = CODE_OPEN.exec(line.trim());
    if (code) {
      flush();
      const rest = code[2]!;
      const closes = rest.indexOf("{code}");
      const body: string[] = [];
      let after = "";
      if (closes !== -1) {
        // One line: `{code}x=1{code}`.
        body.push(rest.slice(0, closes));
        after = rest.slice(closes + "{code}".length);
      } else {
        if (rest) body.push(rest);
        for (i++; i < lines.length && !lines[i]!.includes("{code}"); i++) body.push(lines[i]!);
        if (i < lines.length) {
          const end = lines[i]!.indexOf("{code}");
          if (end > 0) body.push(lines[i]!.slice(0, end));
          after = lines[i]!.slice(end + "{code}".length);
        }
      }
      const text = body.join("\n");
      content.push({
        type: "codeBlock",
        ...(code[1] ? { attrs: { language: code[1] } } : {}),
        ...(text ? { content: [{ type: "text", text }] } : {}),
      });
      if (after.trim()) paragraph.push(after.trim());
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      content.push({ type: "heading", attrs: { level: Number(heading[1]) }, content: inline(heading[2]!) });
      continue;
    }
    if (LIST_ITEM.test(line)) {
      flush();
      const items: { markers: string; text: string }[] = [];
      for (; i < lines.length; i++) {
        const item = LIST_ITEM.exec(lines[i]!);
        if (!item) break;
        items.push({ markers: item[1]!, text: item[2]! });
      }
      i--;
      content.push(...listsOf(items, 1, inline));
      continue;
    }
    if (line.trim() === "") flush();
    else paragraph.push(line);
  }
  flush();
  return { type: "doc", version: 1, content };
}

type Inline = (source: string) => AdfNode[];

function paragraphOf(lines: string[], inline: Inline): AdfNode {
  const nodes: AdfNode[] = [];
  lines.forEach((line, i) => {
    if (i > 0) nodes.push({ type: "hardBreak" });
    nodes.push(...inline(line));
  });
  return nodes.length > 0 ? { type: "paragraph", content: nodes } : { type: "paragraph" };
}

/** Consecutive list items at `depth` (marker length) become lists; deeper items nest in the last item. */
function listsOf(items: { markers: string; text: string }[], depth: number, inline: Inline): AdfNode[] {
  const lists: AdfNode[] = [];
  let i = 0;
  while (i < items.length) {
    const kind = items[i]!.markers[depth - 1] === "#" ? "orderedList" : "bulletList";
    const listItems: AdfNode[] = [];
    while (i < items.length) {
      const item = items[i]!;
      const marker = item.markers[depth - 1] === "#" ? "orderedList" : "bulletList";
      if (item.markers.length === depth && marker !== kind) break;
      if (item.markers.length > depth) {
        const nested: typeof items = [];
        while (i < items.length && items[i]!.markers.length > depth) nested.push(items[i++]!);
        const parent = listItems[listItems.length - 1];
        const lists = listsOf(nested, depth + 1, inline);
        if (parent) parent.content!.push(...lists);
        else listItems.push({ type: "listItem", content: lists });
        continue;
      }
      const text = inline(item.text);
      listItems.push({
        type: "listItem",
        content: [text.length ? { type: "paragraph", content: text } : { type: "paragraph" }],
      });
      i++;
    }
    lists.push({
      type: kind,
      ...(kind === "orderedList" ? { attrs: { order: 1 } } : {}),
      content: listItems,
    });
  }
  return lists;
}

interface InlineRule {
  pattern: RegExp;
  build: (match: RegExpExecArray, marks: Mark[], options: WikiOptions) => AdfNode[];
}

// Emphasis needs a non-word character (or the edge) on the outside and non-space on the inside, as in Jira.
const RULES: InlineRule[] = [
  {
    // A mention takes no text marks in ADF; `accessLevel: ""` is what Jira Cloud stores for it.
    pattern: /\[~accountid:([^\]\s|]+)\]/i,
    build: (m, _marks, options) => [mentionOf(m[1]!, options)],
  },
  {
    pattern: /\{\{(.+?)\}\}/,
    build: (m, marks) => [text(m[1]!, [...marks.filter((k) => k.type === "link"), { type: "code" }])],
  },
  {
    pattern: /\[([^\]|]+)\|([^\]\s]+)\]/,
    build: (m, marks, options) => parse(m[1]!, [...marks, { type: "link", attrs: { href: m[2]! } }], options),
  },
  {
    pattern: /\[((?:https?|mailto):[^\]\s|]+)\]/,
    build: (m, marks) => [text(m[1]!, [...marks, { type: "link", attrs: { href: m[1]! } }])],
  },
  {
    pattern: /(?<![\w*])\*(?=\S)([^*]*?\S)\*(?![\w*])/,
    build: (m, marks, options) => parse(m[1]!, [...marks, { type: "strong" }], options),
  },
  {
    pattern: /(?<![\w_])_(?=\S)([^_]*?\S)_(?![\w_])/,
    build: (m, marks, options) => parse(m[1]!, [...marks, { type: "em" }], options),
  },
];

function mentionOf(accountId: string, options: WikiOptions): AdfNode {
  const name = options.displayName?.(accountId) ?? null;
  return {
    type: "mention",
    attrs: { id: accountId, ...(name === null ? {} : { text: `@${name}` }), accessLevel: "" },
  };
}

function parse(source: string, marks: Mark[], options: WikiOptions): AdfNode[] {
  let best: { match: RegExpExecArray; rule: InlineRule } | null = null;
  for (const rule of RULES) {
    const match = rule.pattern.exec(source);
    if (match && (!best || match.index < best.match.index)) best = { match, rule };
  }
  if (!best) return source ? [text(source, marks)] : [];
  const { match, rule } = best;
  return [
    ...(match.index > 0 ? [text(source.slice(0, match.index), marks)] : []),
    ...rule.build(match, marks, options),
    ...parse(source.slice(match.index + match[0].length), marks, options),
  ];
}

function text(value: string, marks: Mark[]): AdfNode {
  return marks.length > 0
    ? { type: "text", text: value, marks: sortMarks(marks) }
    : { type: "text", text: value };
}

/** Marks in one canonical order, so conversions round-trip to equal documents. */
const MARK_ORDER = ["link", "strong", "em", "code"];
function sortMarks(marks: Mark[]): Mark[] {
  return [...marks].sort((a, b) => MARK_ORDER.indexOf(a.type) - MARK_ORDER.indexOf(b.type));
}

function merge(nodes: AdfNode[]): AdfNode[] {
  const out: AdfNode[] = [];
  for (const node of nodes) {
    const last = out[out.length - 1];
    if (
      last?.type === "text" &&
      node.type === "text" &&
      JSON.stringify(last.marks) === JSON.stringify(node.marks)
    )
      out[out.length - 1] = { ...last, text: last.text! + node.text! };
    else out.push(node);
  }
  return out;
}
