/**
 * The status report's table: its header, and the storage-format table a solution writes from the answer
 * of a JQL search for summary, status and assignee (the reference and the alias solutions share it).
 */
import { escapeXml } from "../../sandbox/fixtures/text.ts";

export const HEADER = ["Key", "Summary", "Status", "Assignee"];

type Found = {
  key: string;
  fields: { summary: string; status: { name: string }; assignee: { displayName: string } | null };
};

/** The report's storage table of a JQL search's answer body. */
export function reportTable(searchBody: unknown): string {
  const rows = (searchBody as { issues: Found[] }).issues.map((i) => [
    i.key,
    i.fields.summary,
    i.fields.status.name,
    i.fields.assignee?.displayName ?? "Unassigned",
  ]);
  const tr = (cells: string[], tag: string) =>
    `<tr>${cells.map((c) => `<${tag}>${escapeXml(c)}</${tag}>`).join("")}</tr>`;
  return `<table><tbody>${tr(HEADER, "th")}${rows.map((r) => tr(r, "td")).join("")}</tbody></table>`;
}
