/**
 * JQL date values: absolute dates (`2026-03-02`, `2026/03/02 10:00`), periods relative to the site
 * clock (`-7d`, `-2w`, `4w 2d`, `-4h`, `30m`), epoch milliseconds, and the date functions
 * (`now()`, `startOfDay(-1)`, `endOfMonth()`, ...). The site's users work in UTC.
 *
 * A value is a span [start, end): a date without a time covers its whole day, a date with a time its
 * minute, and a relative or function value is an instant. `=` matches within the span; `<`, `>=`,
 * `>` and `<=` compare with its start (so `created <= "2026-03-02"` means "by midnight", as in Jira).
 */

export interface DateSpan {
  start: number;
  end: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const PERIOD_UNITS: Record<string, number> = { w: WEEK, d: DAY, h: HOUR, m: MINUTE };

/** Reads a date value; undefined when it is in no format Jira accepts. */
export function parseDateValue(text: string, now: number): DateSpan | undefined {
  const value = text.trim();
  const absolute = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:\s+(\d{1,2}):(\d{2}))?$/.exec(value);
  if (absolute) {
    const [year, month, day, hour, minute] = absolute
      .slice(1)
      .map((part) => (part === undefined ? undefined : Number(part)));
    const start = Date.UTC(year!, month! - 1, day!, hour ?? 0, minute ?? 0);
    const check = new Date(start);
    if (
      check.getUTCMonth() !== month! - 1 ||
      check.getUTCDate() !== day! ||
      (hour ?? 0) > 23 ||
      (minute ?? 0) > 59
    )
      return undefined;
    return { start, end: start + (hour === undefined ? DAY : MINUTE) };
  }
  if (/^\d+$/.test(value)) {
    const ms = Number(value);
    return Number.isSafeInteger(ms) ? { start: ms, end: ms + 1 } : undefined;
  }
  const offset = parsePeriod(value);
  return offset === undefined ? undefined : { start: now + offset, end: now + offset + 1 };
}

/** `-5d`, `4w 2d`, `+3h`, `-1w2d`: a signed sum of weeks, days, hours and minutes, in milliseconds. */
function parsePeriod(value: string): number | undefined {
  const match = /^([+-]?)\s*((?:\d+\s*[wdhm]\s*)+)$/.exec(value);
  if (!match) return undefined;
  let total = 0;
  for (const [, amount, unit] of match[2]!.matchAll(/(\d+)\s*([wdhm])/g))
    total += Number(amount) * PERIOD_UNITS[unit!]!;
  return match[1] === "-" ? -total : total;
}

export type CalendarUnit = "y" | "M" | "w" | "d" | "h" | "m";

/** An increment argument of a date function (`-1`, `+2w`, `-3M`); its unit defaults to the function's. */
export function parseIncrement(
  text: string,
  unit: CalendarUnit,
): { amount: number; unit: CalendarUnit } | undefined {
  const match = /^([+-]?)(\d{1,6})([yMwdhm]?)$/.exec(text.trim());
  if (!match) return undefined;
  const amount = Number(match[2]) * (match[1] === "-" ? -1 : 1);
  return { amount, unit: (match[3] || unit) as CalendarUnit };
}

/** Moves an instant by a calendar amount (months and years keep the day of month where they can). */
export function shift(ms: number, amount: number, unit: CalendarUnit): number {
  if (unit === "m") return ms + amount * MINUTE;
  if (unit === "h") return ms + amount * HOUR;
  if (unit === "d") return ms + amount * DAY;
  if (unit === "w") return ms + amount * WEEK;
  const date = new Date(ms);
  const months = date.getUTCFullYear() * 12 + date.getUTCMonth() + (unit === "y" ? 12 * amount : amount);
  const year = Math.floor(months / 12);
  const month = months - year * 12;
  const day = Math.min(date.getUTCDate(), new Date(Date.UTC(year, month + 1, 0)).getUTCDate());
  return (
    Date.UTC(year, month, day) + (ms - Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()))
  );
}

/** The first instant of the day, week (Sunday), month or year holding `ms`. */
export function startOf(ms: number, unit: "d" | "w" | "M" | "y"): number {
  const date = new Date(ms);
  const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  if (unit === "d") return day;
  if (unit === "w") return day - date.getUTCDay() * DAY;
  if (unit === "M") return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  return Date.UTC(date.getUTCFullYear(), 0, 1);
}

/** The last millisecond of the day, week, month or year holding `ms`. */
export function endOf(ms: number, unit: "d" | "w" | "M" | "y"): number {
  const next = unit === "d" ? DAY : unit === "w" ? WEEK : 0;
  if (next > 0) return startOf(ms, unit) + next - 1;
  return shift(startOf(ms, unit), 1, unit) - 1;
}

/** A `yyyy-MM-dd` due date as the instant its day starts. */
export function dueDateMs(date: string | null): number | null {
  return date === null ? null : Date.parse(`${date}T00:00:00.000Z`);
}
