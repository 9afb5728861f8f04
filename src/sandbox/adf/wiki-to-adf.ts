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

// `(?=(x+))\N` matches a run atomically, so a line that fails to match costs one pass, not one per split.
const HEADING = /^h([1-6])\.(?=(\s+))\2(.*)$/;
const LIST_ITEM = /^([*#]+)(?=(\s+))\2(.*)$/;
const CODE_OPEN = /^\{code(?::(?=([\w+#.-]+))\1)?[^}]*\}(.*)$/;

/**
 * Deepest list nesting read as a list. Jira never refuses wiki markup (what it cannot render stays text),
 * so a line with a longer run of markers stays a paragraph of text; 100 levels keeps the ADF far inside the
 * 1000-level JSON nesting limit the site applies to documents it is given (four levels per list level).
 */
export const MAX_LIST_DEPTH = 100;

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
      content.push({ type: "heading", attrs: { level: Number(heading[1]) }, content: inline(heading[3]!) });
      continue;
    }
    if (listItem(line)) {
      flush();
      const items: { markers: string; text: string }[] = [];
      for (; i < lines.length; i++) {
        const item = listItem(lines[i]!);
        if (!item) break;
        items.push(item);
      }
      i--;
      for (const list of listsOf(items, 1, inline)) content.push(list);
      continue;
    }
    if (line.trim() === "") flush();
    else paragraph.push(line);
  }
  flush();
  return { type: "doc", version: 1, content };
}

type Inline = (source: string) => AdfNode[];

function listItem(line: string): { markers: string; text: string } | null {
  const item = LIST_ITEM.exec(line);
  if (!item || item[1]!.length > MAX_LIST_DEPTH) return null;
  return { markers: item[1]!, text: item[3]! };
}

function paragraphOf(lines: string[], inline: Inline): AdfNode {
  const nodes: AdfNode[] = [];
  lines.forEach((line, i) => {
    if (i > 0) nodes.push({ type: "hardBreak" });
    for (const node of inline(line)) nodes.push(node);
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
        if (parent) for (const list of lists) parent.content!.push(list);
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

function mentionOf(accountId: string, options: WikiOptions): AdfNode {
  const name = options.displayName?.(accountId) ?? null;
  return {
    type: "mention",
    attrs: { id: accountId, ...(name === null ? {} : { text: `@${name}` }), accessLevel: "" },
  };
}

/**
 * The first index at or after `from` whose character passes `stop` (the length when none does). Calls
 * with increasing `from` reuse the last answer while it still applies, so a whole left-to-right parse
 * scans the text about once however many openers fail to close.
 */
function finder(source: string, stop: (i: number) => boolean): (from: number) => number {
  let lastFrom = 0;
  let last = -1;
  return (from) => {
    if (last !== -1 && from >= lastFrom && from <= last) return last;
    let i = from;
    while (i < source.length && !stop(i)) i++;
    lastFrom = from;
    last = i;
    return i;
  };
}

const SPACE = /\s/;
const WORD = /\w/;
const LINE_END = /[\n\r\u2028\u2029]/;

/**
 * The inline nodes of `source`, reading from the left: at each position the first of these that matches
 * there wins (a mention, `{{code}}`, `[text|url]`, `[url]`, `*strong*`, `_em_`), the text before it is kept
 * as is, and reading resumes after it as if the rest were a new text (emphasis at its start needs nothing
 * before it). Each construct is matched at one position with bounded look-ahead, so parsing is linear in
 * the text; nesting (a link's text, emphasis) recurses at most three levels, since none of them can hold
 * its own kind.
 */
function parse(source: string, marks: Mark[], options: WikiOptions): AdfNode[] {
  const out: AdfNode[] = [];
  const at = (i: number) => source[i];
  // `]`, whitespace or `|` end an account id and a bare URL; `]` or `|` a link's text; `]` or space its URL.
  const idEnd = finder(source, (i) => at(i) === "]" || at(i) === "|" || SPACE.test(at(i)!));
  const urlEnd = finder(source, (i) => at(i) === "]" || at(i) === "|" || SPACE.test(at(i)!));
  const labelEnd = finder(source, (i) => at(i) === "]" || at(i) === "|");
  const hrefEnd = finder(source, (i) => at(i) === "]" || SPACE.test(at(i)!));
  const codeClose = finder(source, (i) => at(i) === "}" && at(i + 1) === "}");
  const lineEnd = finder(source, (i) => LINE_END.test(at(i)!));
  const star = finder(source, (i) => at(i) === "*");
  const underscore = finder(source, (i) => at(i) === "_");
  let start = 0;

  /** A construct at `i`: its nodes and where it ends; `start` is where the current text begins. */
  const match = (i: number): { nodes: AdfNode[]; end: number } | null => {
    const c = at(i);
    if (c === "[") {
      if (source.slice(i + 1, i + 12).toLowerCase() === "~accountid:") {
        const end = idEnd(i + 12);
        if (end > i + 12 && at(end) === "]")
          return { nodes: [mentionOf(source.slice(i + 12, end), options)], end: end + 1 };
      }
    }
    if (c === "{" && at(i + 1) === "{") {
      const close = codeClose(i + 3);
      if (close < source.length && lineEnd(i + 2) >= close) {
        const code = [...marks.filter((k) => k.type === "link"), { type: "code" }];
        return { nodes: [text(source.slice(i + 2, close), code)], end: close + 2 };
      }
    }
    if (c === "[") {
      const bar = labelEnd(i + 1);
      if (bar > i + 1 && at(bar) === "|") {
        const end = hrefEnd(bar + 1);
        if (end > bar + 1 && at(end) === "]") {
          const href = source.slice(bar + 1, end);
          const link = { type: "link", attrs: { href } };
          return { nodes: parse(source.slice(i + 1, bar), [...marks, link], options), end: end + 1 };
        }
      }
      const scheme = /^(?:https?|mailto):/.exec(source.slice(i + 1, i + 9));
      if (scheme) {
        const from = i + 1 + scheme[0].length;
        const end = urlEnd(from);
        if (end > from && at(end) === "]") {
          const href = source.slice(i + 1, end);
          return { nodes: [text(href, [...marks, { type: "link", attrs: { href } }])], end: end + 1 };
        }
      }
    }
    if (c === "*" || c === "_") {
      // (?<![\w*])\*(?=\S)([^*]*?\S)\*(?![\w*]), and the same with `_`.
      if (i > start && (WORD.test(at(i - 1)!) || at(i - 1) === c)) return null;
      if (i + 1 >= source.length || SPACE.test(at(i + 1)!)) return null;
      const next = (c === "*" ? star : underscore)(i + 1);
      const closesAt = (close: number) =>
        close < source.length &&
        at(close) === c &&
        !SPACE.test(at(close - 1)!) &&
        (close + 1 >= source.length || !(WORD.test(at(close + 1)!) || at(close + 1) === c));
      // The content is star-free text and one last non-space character, which may be the next star.
      const close = next >= i + 2 && closesAt(next) ? next : closesAt(next + 1) ? next + 1 : -1;
      if (close === -1) return null;
      const mark = { type: c === "*" ? "strong" : "em" };
      return { nodes: parse(source.slice(i + 1, close), [...marks, mark], options), end: close + 1 };
    }
    return null;
  };

  let i = 0;
  while (i < source.length) {
    const found = match(i);
    if (!found) {
      i++;
      continue;
    }
    if (i > start) out.push(text(source.slice(start, i), marks));
    for (const node of found.nodes) out.push(node);
    start = i = found.end;
  }
  if (start < source.length) out.push(text(source.slice(start), marks));
  return out;
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
