/**
 * The block structure of a rich-text value, for `blocks` expectations: its top-level blocks (heading
 * of a level, paragraph, table, anything else) with their visible text, read from the parsed document
 * whatever the representation (storage XHTML — the v2 and v1 page body —, ADF, a body in
 * atlas_doc_format; Jira wiki markup is stored as ADF). Blocks a reader cannot see (an empty
 * paragraph, a comment) are left out.
 */
import type { AdfNode } from "../sandbox/adf/types.ts";
import { parseXhtml, type XNode } from "../sandbox/adf/xhtml.ts";
import type { ExpectedBlock, ExpectedBlocks } from "./expectation.ts";
import { adfTables, nodesText, type RichTable, readRichText, sameRows, storageTable } from "./rich-table.ts";
import { adfText, normalizeText } from "./visible-text.ts";

export type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "table"; table: RichTable; text: string }
  | { kind: "other"; text: string };

/** The top-level blocks of a rich-text value; null when it is not a document (unparseable storage). */
export function blocksOf(value: unknown): Block[] | null {
  return readRichText<Block[] | null>(value, storageBlocks, adfBlocks, null);
}

function storageBlocks(value: string): Block[] | null {
  const parsed = parseXhtml(value);
  if (!parsed.ok) return null;
  const blocks: Block[] = [];
  let loose: XNode[] = [];
  const flush = () => {
    const text = nodesText(loose);
    if (text !== "") blocks.push({ kind: "other", text });
    loose = [];
  };
  for (const node of parsed.nodes) {
    if (node.kind === "text" || !/^(h[1-6]|p|table|ul|ol|div|blockquote|pre|hr|ac:.*)$/.test(node.name)) {
      loose.push(node);
      continue;
    }
    flush();
    const text = nodesText([node]);
    if (node.name === "table") blocks.push({ kind: "table", table: storageTable(node), text });
    else if (text === "") continue;
    else if (/^h[1-6]$/.test(node.name)) blocks.push({ kind: "heading", level: Number(node.name[1]), text });
    else if (node.name === "p") blocks.push({ kind: "paragraph", text });
    else blocks.push({ kind: "other", text });
  }
  flush();
  return blocks;
}

function adfBlocks(doc: AdfNode): Block[] | null {
  if (doc?.type !== "doc") return null;
  const blocks: Block[] = [];
  for (const node of doc.content ?? []) {
    const text = adfText({ type: "doc", content: [node] });
    if (node.type === "table") blocks.push({ kind: "table", table: adfTables(node)[0]!, text });
    else if (text === "") continue;
    else if (node.type === "heading")
      blocks.push({ kind: "heading", level: Number(node.attrs?.level), text });
    else if (node.type === "paragraph") blocks.push({ kind: "paragraph", text });
    else blocks.push({ kind: "other", text });
  }
  return blocks;
}

function blockMatches(got: Block, want: ExpectedBlock): boolean {
  if ("heading" in want)
    return (
      got.kind === "heading" &&
      (want.level === undefined || got.level === want.level) &&
      got.text === normalizeText(want.heading)
    );
  if ("paragraph" in want) return got.kind === "paragraph" && got.text === normalizeText(want.paragraph);
  return got.kind === "table" && sameRows(got.table, want.table);
}

/**
 * Whether the value ends with exactly these blocks, in order; before them, blocks whose visible text is
 * `before` (the kept body of an appended section), or nothing when `before` is absent.
 */
export function blocksMatch(value: unknown, expected: ExpectedBlocks): boolean {
  const blocks = blocksOf(value);
  if (blocks === null || blocks.length < expected.blocks.length) return false;
  const cut = blocks.length - expected.blocks.length;
  const head = blocks.slice(0, cut);
  const kept = normalizeText(head.map((b) => b.text).join(" "));
  if (expected.before === undefined ? head.length > 0 : kept !== normalizeText(expected.before)) return false;
  return expected.blocks.every((want, i) => blockMatches(blocks[cut + i]!, want));
}
