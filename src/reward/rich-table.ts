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

export function tablesOf(value: unknown): RichTable[] {
  if (!value || typeof value !== "object") return [];
  const body = value as { representation?: unknown; value?: unknown };
  if (body.representation === "storage" && typeof body.value === "string") return storageTables(body.value);
  if (typeof body.representation === "string" && typeof body.value === "string") {
    try {
      return adfTables(JSON.parse(body.value) as AdfNode);
    } catch {
      return [];
    }
  }
  return adfTables(value as AdfNode);
}

function storageTables(value: string): RichTable[] {
  const parsed = parseXhtml(value);
  if (!parsed.ok) return [];
  const tables: RichTable[] = [];
  const elements = (nodes: XNode[]) => nodes.filter((n): n is XElement => n.kind === "element");
  const find = (nodes: XNode[], name: string): XElement[] =>
    elements(nodes).flatMap((n) => (n.name === name ? [n] : find(n.children, name)));
  const serialize = (nodes: XNode[]): string =>
    nodes
      .map((n) =>
        n.kind === "text"
          ? n.text.replace(/&/g, "&amp;").replace(/</g, "&lt;")
          : `<${n.name}>${serialize(n.children)}</${n.name}>`,
      )
      .join("");
  for (const table of find(parsed.nodes, "table")) {
    const rows = find(table.children, "tr").map((tr) =>
      elements(tr.children).filter((c) => /^t[dh]$/.test(c.name)),
    );
    tables.push({
      headerRow: rows.length > 0 && rows[0]!.length > 0 && rows[0]!.every((c) => c.name === "th"),
      rows: rows.map((cells) => cells.map((c) => storageText(serialize(c.children)))),
    });
  }
  return tables;
}

function adfTables(node: AdfNode): RichTable[] {
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
  if (tables.length !== 1) return false;
  const want = [...(expected.header ? [expected.header] : []), ...expected.rows].map((r) =>
    r.map(normalizeText),
  );
  const got = tables[0]!.rows;
  return JSON.stringify(got) === JSON.stringify(want);
}
