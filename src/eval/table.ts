/**
 * Plain-text and Markdown tables for the terminal and the reports, and the number formats they share.
 */

/** A number with fixed decimals; "—" for null/NaN. */
export function num(x: number | null | undefined, digits = 3): string {
  return x === null || x === undefined || Number.isNaN(x) ? "—" : x.toFixed(digits);
}

/** A signed number, e.g. "+0.125". */
export function signed(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || Number.isNaN(x)) return "—";
  return `${x >= 0 ? "+" : "-"}${Math.abs(x).toFixed(digits)}`;
}

/** "[low, high]". */
export function interval(low: number, high: number, digits = 3): string {
  return `[${num(low, digits)}, ${num(high, digits)}]`;
}

/** "0.617 [0.10, 0.88]": a value with its interval (2 decimals); "—" without a value. */
export const withInterval = (value: number | null, ci: [number, number] | null | undefined) =>
  value === null ? "—" : `${num(value)}${ci ? ` ${interval(ci[0], ci[1], 2)}` : ""}`;

export type Align = "left" | "right";

/** A space-aligned text table with a rule under the header. */
export function textTable(headers: string[], rows: string[][], align: Align[] = []): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const cell = (text: string, i: number) =>
    align[i] === "right" ? text.padStart(widths[i]!) : text.padEnd(widths[i]!);
  const line = (cells: string[]) => cells.map(cell).join("  ").replace(/\s+$/, "");
  return [line(headers), widths.map((w) => "─".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** A GitHub-flavoured Markdown table; pipes in cells are escaped. */
export function markdownTable(headers: string[], rows: string[][], align: Align[] = []): string {
  const esc = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");
  const rule = headers.map((_, i) => (align[i] === "right" ? "---:" : "---"));
  return [headers, rule, ...rows].map((r) => `| ${r.map(esc).join(" | ")} |`).join("\n");
}
