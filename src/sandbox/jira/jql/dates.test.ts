import { describe, expect, it } from "vitest";
import { endOf, parseDateValue, parseIncrement, shift, startOf } from "./dates.ts";

const NOW = Date.UTC(2026, 4, 4, 16, 30); // Monday 2026-05-04 16:30 UTC
const iso = (ms: number) => new Date(ms).toISOString();

describe("parseDateValue", () => {
  it("reads dates as their whole day and date-times as their minute", () => {
    expect(parseDateValue("2026-03-02", NOW)).toEqual({
      start: Date.UTC(2026, 2, 2),
      end: Date.UTC(2026, 2, 3),
    });
    expect(parseDateValue("2026/03/02 10:05", NOW)).toEqual({
      start: Date.UTC(2026, 2, 2, 10, 5),
      end: Date.UTC(2026, 2, 2, 10, 6),
    });
    expect(parseDateValue("2026-3-2", NOW)?.start).toBe(Date.UTC(2026, 2, 2));
  });

  it("reads periods relative to now", () => {
    expect(parseDateValue("-7d", NOW)?.start).toBe(NOW - 7 * 86_400_000);
    expect(parseDateValue("-2w", NOW)?.start).toBe(NOW - 14 * 86_400_000);
    expect(parseDateValue("-4h", NOW)?.start).toBe(NOW - 4 * 3_600_000);
    expect(parseDateValue("30m", NOW)?.start).toBe(NOW + 30 * 60_000);
    expect(parseDateValue("-1w 2d", NOW)?.start).toBe(NOW - 9 * 86_400_000);
    expect(parseDateValue("+4w2d", NOW)?.start).toBe(NOW + 30 * 86_400_000);
  });

  it("reads epoch milliseconds", () => {
    expect(parseDateValue("1772442000000", NOW)?.start).toBe(1772442000000);
  });

  it.each(["yesterday", "2026-02-30", "2026-13-01", "2026-03-02 25:00", "-7", "7x", "", "03/02/2026", "-d"])(
    "refuses %j",
    (text) => {
      expect(parseDateValue(text, NOW)).toBeUndefined();
    },
  );
});

describe("calendar helpers", () => {
  it("finds the start and end of days, weeks (from Sunday), months and years in UTC", () => {
    expect(iso(startOf(NOW, "d"))).toBe("2026-05-04T00:00:00.000Z");
    expect(iso(endOf(NOW, "d"))).toBe("2026-05-04T23:59:59.999Z");
    expect(iso(startOf(NOW, "w"))).toBe("2026-05-03T00:00:00.000Z");
    expect(iso(endOf(NOW, "w"))).toBe("2026-05-09T23:59:59.999Z");
    expect(iso(startOf(NOW, "M"))).toBe("2026-05-01T00:00:00.000Z");
    expect(iso(endOf(NOW, "M"))).toBe("2026-05-31T23:59:59.999Z");
    expect(iso(startOf(NOW, "y"))).toBe("2026-01-01T00:00:00.000Z");
    expect(iso(endOf(NOW, "y"))).toBe("2026-12-31T23:59:59.999Z");
  });

  it("shifts by calendar months, keeping the day where the month has it", () => {
    expect(iso(shift(Date.UTC(2026, 0, 31, 12), 1, "M"))).toBe("2026-02-28T12:00:00.000Z");
    expect(iso(shift(Date.UTC(2026, 0, 15), -2, "M"))).toBe("2025-11-15T00:00:00.000Z");
    expect(iso(shift(Date.UTC(2024, 1, 29), 1, "y"))).toBe("2025-02-28T00:00:00.000Z");
  });

  it("reads function increments with the function's unit as default", () => {
    expect(parseIncrement("-1", "d")).toEqual({ amount: -1, unit: "d" });
    expect(parseIncrement("+2w", "d")).toEqual({ amount: 2, unit: "w" });
    expect(parseIncrement("3M", "w")).toEqual({ amount: 3, unit: "M" });
    expect(parseIncrement("-1x", "d")).toBeUndefined();
  });
});
