/** The composition catalogue: enough distinct sequences, families and horizons; held-out pairings stay apart. */
import { describe, expect, it } from "vitest";
import { FAMILIES } from "../families.ts";
import { compositions, HELD_OUT_FEEDS } from "./catalogue.ts";

describe("workflow catalogue", () => {
  const scopes = ["jira", "confluence", "cross-product", "heldout"] as const;
  const all = scopes.flatMap((s) => compositions(s));

  it("holds >= 100 distinct sequences over >= 12 registered families, horizons 2-5, both products", () => {
    expect(new Set(all.map((c) => c.id)).size).toBeGreaterThanOrEqual(100);
    const families = new Set(all.flatMap((c) => c.steps.map((s) => s.family)));
    expect(families.size).toBeGreaterThanOrEqual(12);
    for (const f of families) expect(FAMILIES.map((s) => s.id)).toContain(f);
    expect(new Set(all.map((c) => c.steps.length))).toEqual(new Set([2, 3, 4, 5]));
    for (const c of all)
      for (const s of c.steps) if (s.bind !== undefined) expect(s.bind).toBeLessThan(c.steps.indexOf(s));
  });

  it("never pairs held-out feeds outside the held-out scope", () => {
    for (const scope of ["jira", "confluence", "cross-product"] as const)
      for (const c of compositions(scope))
        for (const s of c.steps)
          if (s.bind !== undefined) {
            const from = c.steps[s.bind]!.family;
            expect(
              HELD_OUT_FEEDS.some((f) => f.from === from && f.to.includes(s.family)),
              c.id,
            ).toBe(false);
          }
  });
});
