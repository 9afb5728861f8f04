/**
 * Text helpers for the eval report's drill-down: shortening long texts so one huge observation cannot
 * bloat the page, and pretty JSON. Escaping is the report kit's `esc` (src/report-kit/escape-html.ts).
 */

/** At most `max` characters, with a note saying how many were left out. */
export function clip(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)}… (${text.length - max} more characters; the full text is in episodes.jsonl)`;
}

/** Pretty JSON for arguments and bodies; strings that are not JSON are shown as they are. */
export function pretty(value: unknown): string {
  if (typeof value === "string") {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2) ?? String(value);
}
