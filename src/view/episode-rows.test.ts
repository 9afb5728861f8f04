/** The view's episode rows: how each episode ended, and the `ended` filter (truncated takes both causes). */
import { describe, expect, it } from "vitest";
import { makeRecord } from "../../test/support/trace-fixtures.ts";
import { episodeRow, filterChoices, matches } from "./episode-rows.ts";

const span = { start: 0, end: 1 };
const rows = [
  makeRecord({ index: 0 }),
  makeRecord({ index: 1, reward: 0.3, passed: false, truncation: "max_turns" }),
  makeRecord({ index: 2, reward: 0, passed: false, truncation: "budget" }),
  makeRecord({ index: 3, reward: 0, passed: false, error: { type: "timeout", message: "t" } }),
].map((r) => episodeRow(r, span));

describe("episode rows", () => {
  it("names each ending; a truncated episode is scored, not a provider error", () => {
    expect(rows.map((r) => r.ending)).toEqual(["terminated", "max_turns", "budget", "provider_error"]);
    expect(rows[1]!.outcome).toMatchObject({ error: null, truncation: "max_turns", reward: 0.3 });
  });

  it("filters on one ending, or on `truncated` for both truncations", () => {
    const pick = (ending: string, verdict?: "errored") =>
      rows.filter((r) => matches(r, { ending, ...(verdict ? { verdict } : {}) })).map((r) => r.ending);
    expect(pick("max_turns")).toEqual(["max_turns"]);
    expect(pick("truncated")).toEqual(["max_turns", "budget"]);
    expect(pick("truncated", "errored")).toEqual([]);
    expect(filterChoices(rows).ending).toEqual([
      "budget",
      "max_turns",
      "provider_error",
      "terminated",
      "truncated",
    ]);
    expect(filterChoices(rows.slice(0, 1)).ending).toEqual(["terminated"]);
  });
});
