/**
 * The tables of a rich-text value, as rows of visible cell text (storage `<table>` or ADF `table`),
 * for `table` expectations.
 */
import type { AdfNode } from "../sandbox/adf/types.ts";
import { parseXhtml, type XElement, type XNode } from "../sandbox/adf/xhtml.ts";
import { adfText, normalizeText, storageText } from "./visible-text.ts";

export interface RichTable {
  /** Whether the first row is made of header cells. */
  headerRow: boolean;
  rows: string[][];
}

/**
 * Reads a rich-text value by its representation: a `{representation: "storage", value}` body with
 * `storage`, any other `{representation, value}` body (atlas_doc_format) and a bare ADF document with
 * `adf`; `none` when it is no object or its ADF JSON does not parse.
 */
export function readRichText<T>(
  value: unknown,
  storage: (xhtml: string) => T,
  adf: (doc: AdfNode) => T,
  none: T,
): T {
  if (!value || typeof value !== "object") return none;
  const body = value as { representation?: unknown; value?: unknown };
  if (body.representation === "storage" && typeof body.value === "string") return storage(body.value);
  if (typeof body.representation === "string" && typeof body.value === "string") {
    try {
      return adf(JSON.parse(body.value) as AdfNode);
    } catch {
      return none;
    }
  }
  return adf(value as AdfNode);
}

export function tablesOf(value: unknown): RichTable[] {
  return readRichText(value, storageTables, adfTables, []);
}

function storageTables(value: string): RichTable[] {
  const parsed = parseXhtml(value);
  if (!parsed.ok) return [];
  return find(parsed.nodes, "table").map(storageTable);
}

const elements = (nodes: XNode[]) => nodes.filter((n): n is XElement => n.kind === "element");
const find = (nodes: XNode[], name: string): XElement[] =>
  elements(nodes).flatMap((n) => (n.name === name ? [n] : find(n.children, name)));
const serialize = (nodes: XNode[]): string =>
  nodes
    .map((n) =>
      n.kind === "text"
        ? n.text.replace(/&/g, "&amp;").replace(/</g, "&lt;")
        : `<${n.name}${attrsOf(n)}>${serialize(n.children)}</${n.name}>`,
    )
    .join("");

// Attributes are kept: a hidden element (`hidden`, `display:none`) stays invisible in a cell or block.
const attrsOf = (n: XElement) =>
  Object.entries(n.attrs)
    .map(([k, v]) => ` ${k}="${v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;")}"`)
    .join("");

/** One storage `<table>` element as rows of visible cell text. */
export function storageTable(table: XElement): RichTable {
  const rows = find(table.children, "tr").map((tr) =>
    elements(tr.children).filter((c) => /^t[dh]$/.test(c.name)),
  );
  return {
    headerRow: rows.length > 0 && rows[0]!.length > 0 && rows[0]!.every((c) => c.name === "th"),
    rows: rows.map((cells) => cells.map((c) => storageText(serialize(c.children)))),
  };
}

/** The visible text of storage nodes (a block's content). */
export const nodesText = (nodes: XNode[]): string => storageText(serialize(nodes));

export function adfTables(node: AdfNode): RichTable[] {
  if (node.type === "table") {
    const rows = (node.content ?? []).filter((r) => r.type === "tableRow").map((r) => r.content ?? []);
    return [
      {
        headerRow: rows.length > 0 && rows[0]!.length > 0 && rows[0]!.every((c) => c.type === "tableHeader"),
        rows: rows.map((cells) => cells.map((c) => adfText({ type: "doc", content: c.content ?? [] }))),
      },
    ];
  }
  return (node.content ?? []).flatMap(adfTables);
}

/** Whether a value holds exactly one table with these rows (header row first when given). */
export function tableMatches(value: unknown, expected: { header?: string[]; rows: string[][] }): boolean {
  const tables = tablesOf(value);
  return tables.length === 1 && sameRows(tables[0]!, expected);
}

/** Whether a table's rows are these (visible text per cell, header row first when given). */
export function sameRows(table: RichTable, expected: { header?: string[]; rows: string[][] }): boolean {
  const want = [...(expected.header ? [expected.header] : []), ...expected.rows].map((r) =>
    r.map(normalizeText),
  );
  return JSON.stringify(table.rows) === JSON.stringify(want);
}
