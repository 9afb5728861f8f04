/**
 * Inline Markdown → ADF text nodes: **bold** / __bold__, *italic* / _italic_, `code`, [links](url),
 * <autolinks>, Jira user mentions ([~accountid:...]) and backslash escapes. Marks nest (a bold link is one text node with both marks); an
 * underscore inside a word (snake_case) stays literal, as in CommonMark. Unclosed delimiters are text.
 */
import type { AdfNode } from "../../../sandbox/adf/types.ts";

type Mark = NonNullable<AdfNode["marks"]>[number];

const ESCAPABLE = /[\\`*_{}[\]()#+\-.!<>|~]/;
const WORD = /[\p{L}\p{N}]/u;

/** The ADF inline nodes of one paragraph or heading's text. */
export function parseInline(text: string): AdfNode[] {
  return merge(inline(text, [], 0));
}

/**
 * Deepest nesting of emphasis and link text read as marks; delimiters nested deeper stay text. Real text
 * never comes close, and the bound keeps the parse off the call stack's limit and linear in the input.
 */
export const MAX_INLINE_DEPTH = 50;

function inline(text: string, marks: Mark[], depth: number): AdfNode[] {
  const out: AdfNode[] = [];
  const context: Context = { text, depth, brackets: null };
  let plain = "";
  const flush = () => {
    if (plain !== "") out.push(textNode(plain, marks));
    plain = "";
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "\\" && i + 1 < text.length && ESCAPABLE.test(text[i + 1]!)) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    const span = matchSpan(context, i, marks);
    if (span) {
      flush();
      for (const node of span.nodes) out.push(node);
      i = span.end;
      continue;
    }
    plain += ch;
    i++;
  }
  flush();
  return out;
}

interface Context {
  text: string;
  depth: number;
  /** For each `[`, the index of the `]` that closes it (-1: none), found in one pass when first needed. */
  brackets: Int32Array | null;
}

interface Span {
  nodes: AdfNode[];
  end: number;
}

/** A code span, link, autolink or emphasis that starts at `i`, if one closes. */
function matchSpan(context: Context, i: number, marks: Mark[]): Span | null {
  const { text, depth } = context;
  const ch = text[i]!;
  // Jira wiki's user mention, which mcp-atlassian passes through to Jira: [~accountid:5b10...].
  MENTION.lastIndex = i;
  const mention = ch === "[" ? MENTION.exec(text) : null;
  if (mention)
    return { nodes: [{ type: "mention", attrs: { id: mention[1]! } }], end: i + mention[0].length };
  if (ch === "`") {
    const ticks = /^`+/.exec(text.slice(i))![0];
    const close = text.indexOf(ticks, i + ticks.length);
    if (close === -1) return null;
    const code = text.slice(i + ticks.length, close).replace(/^ (.*) $/s, "$1");
    const link = marks.filter((m) => m.type === "link");
    return {
      nodes: code === "" ? [] : [textNode(code, [...link, { type: "code" }])],
      end: close + ticks.length,
    };
  }
  if (depth >= MAX_INLINE_DEPTH) return null;
  if (ch === "[") return matchLink(context, i, marks);
  if (ch === "<") {
    const auto = /^<((?:https?|mailto):[^\s<>]+)>/.exec(text.slice(i));
    if (!auto) return null;
    return { nodes: [textNode(auto[1]!, [...marks, link(auto[1]!)])], end: i + auto[0].length };
  }
  if (ch === "*" || ch === "_") return matchEmphasis(context, i, marks);
  return null;
}

const MENTION = /\[~accountid:([^\]\s]+)\]/y;

/**
 * The closing `]` of each `[` (counting nested brackets, a backslash escaping the next character), for
 * the whole text at once: scanning ahead from every `[` would take time quadratic in a run of them.
 */
function bracketsOf(text: string): Int32Array {
  const closing = new Int32Array(text.length).fill(-1);
  const open: number[] = [];
  for (let j = 0; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === "[") open.push(j);
    else if (text[j] === "]" && open.length > 0) closing[open.pop()!] = j;
  }
  return closing;
}

function matchLink(context: Context, i: number, marks: Mark[]): Span | null {
  const { text } = context;
  context.brackets ??= bracketsOf(text);
  const j = context.brackets[i]!;
  if (j === -1) return null;
  const target = /^\(\s*<?([^\s()<>]*)>?(?:\s+"[^"]*")?\s*\)/.exec(text.slice(j + 1));
  if (!target || target[1] === "") return null;
  const label = text.slice(i + 1, j);
  const nodes = inline(label === "" ? target[1]! : label, [...marks, link(target[1]!)], context.depth + 1);
  return { nodes, end: j + 1 + target[0].length };
}

function matchEmphasis(context: Context, i: number, marks: Mark[]): Span | null {
  const { text } = context;
  const ch = text[i]!;
  const double = text[i + 1] === ch;
  const delim = double ? ch + ch : ch;
  const start = i + delim.length;
  const next = text[start];
  if (next === undefined || /\s/.test(next)) return null;
  if (ch === "_" && i > 0 && WORD.test(text[i - 1]!)) return null;
  for (let j = start + 1; j <= text.length - delim.length; j++) {
    if (text[j] === "\\") {
      j++;
      continue;
    }
    if (text[j] === "`") {
      const ticks = /^`+/.exec(text.slice(j))![0];
      const close = text.indexOf(ticks, j + ticks.length);
      if (close !== -1) j = close + ticks.length - 1;
      continue;
    }
    if (text[j] !== ch) continue;
    const run = (ch === "*" ? /^\*+/ : /^_+/).exec(text.slice(j))![0].length;
    // A single delimiter closes only on a lone one (`*a **b** c*` closes at the end).
    if ((double ? run < 2 : run > 1) || /\s/.test(text[j - 1]!)) {
      j += run - 1;
      continue;
    }
    const after = text[j + delim.length];
    if (ch === "_" && after !== undefined && WORD.test(after)) continue;
    const type = double ? "strong" : "em";
    const inner = inline(
      text.slice(start, j),
      marks.some((m) => m.type === type) ? marks : [...marks, { type }],
      context.depth + 1,
    );
    return { nodes: inner, end: j + delim.length };
  }
  return null;
}

const link = (href: string): Mark => ({ type: "link", attrs: { href } });

function textNode(text: string, marks: Mark[]): AdfNode {
  return marks.length > 0 ? { type: "text", text, marks: [...marks] } : { type: "text", text };
}

/** Joins neighbouring text nodes that carry the same marks. */
function merge(nodes: AdfNode[]): AdfNode[] {
  const out: AdfNode[] = [];
  for (const node of nodes) {
    const last = out.at(-1);
    if (last?.type === "text" && node.type === "text" && sameMarks(last.marks, node.marks))
      out[out.length - 1] = { ...last, text: `${last.text}${node.text}` };
    else out.push(node);
  }
  return out;
}

function sameMarks(a: AdfNode["marks"], b: AdfNode["marks"]): boolean {
  return JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
}
