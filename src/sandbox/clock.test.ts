import { describe, expect, it } from "vitest";
import { jiraRenderedDate, jiraRenderedTime, jiraTime, SITE_EPOCH_MS } from "./clock.ts";

describe("the site's time formats", () => {
  it("writes Jira's timestamp and its rendered date and time, in UTC", () => {
    expect(jiraTime(SITE_EPOCH_MS)).toBe("2026-03-02T09:00:00.000+0000");
    expect(jiraRenderedTime(SITE_EPOCH_MS)).toBe("02/Mar/26 9:00 AM");
    expect(jiraRenderedTime(Date.UTC(2026, 11, 31, 0, 5))).toBe("31/Dec/26 12:05 AM");
    expect(jiraRenderedTime(Date.UTC(2026, 6, 4, 12, 0))).toBe("04/Jul/26 12:00 PM");
    expect(jiraRenderedTime(Date.UTC(2026, 6, 4, 23, 59))).toBe("04/Jul/26 11:59 PM");
    expect(jiraRenderedDate(Date.UTC(2009, 0, 9))).toBe("09/Jan/09");
  });
});
