/**
 * Time formatting for the simulated site. The site's clock is a number of milliseconds held in its
 * counters and advanced explicitly by writes, so responses never depend on the wall clock.
 */

/** The instant every default site starts at: 2026-03-02T09:00:00.000Z. */
export const SITE_EPOCH_MS = Date.UTC(2026, 2, 2, 9, 0, 0);

/** How far the clock moves for each write, so that created/updated stamps are distinct and ordered. */
export const WRITE_TICK_MS = 1_000;

const jiraTimes = new Map<number, string>();

/** Jira's timestamp format, e.g. `2026-03-02T09:00:00.000+0000` (memoised: a site has few distinct instants). */
export function jiraTime(ms: number): string {
  let text = jiraTimes.get(ms);
  if (text === undefined) {
    text = new Date(ms).toISOString().replace("Z", "+0000");
    if (jiraTimes.size > 100_000) jiraTimes.clear();
    jiraTimes.set(ms, text);
  }
  return text;
}

/** Confluence's timestamp format, e.g. `2026-03-02T09:00:00.000Z`. */
export function confluenceTime(ms: number): string {
  return new Date(ms).toISOString();
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Jira's rendered date (its "complete" format, `dd/MMM/yy`), e.g. `02/Mar/26`, in the site's UTC. */
export function jiraRenderedDate(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getUTCDate()).padStart(2, "0")}/${MONTHS[d.getUTCMonth()]}/${String(d.getUTCFullYear() % 100).padStart(2, "0")}`;
}

/** Jira's rendered date and time (`dd/MMM/yy h:mm AM`), e.g. `02/Mar/26 9:00 AM`, in the site's UTC. */
export function jiraRenderedTime(ms: number): string {
  const d = new Date(ms);
  const hour = d.getUTCHours();
  const minutes = String(d.getUTCMinutes()).padStart(2, "0");
  return `${jiraRenderedDate(ms)} ${hour % 12 === 0 ? 12 : hour % 12}:${minutes} ${hour < 12 ? "AM" : "PM"}`;
}
