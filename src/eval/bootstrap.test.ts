import { describe, expect, it } from "vitest";
import { bootstrapCompare, quantile, type Stratum, type TaskRewards } from "./bootstrap.ts";

const tasks = (rewards: number[], k = 1): TaskRewards[] => rewards.map((r) => ({ sum: r * k, count: k }));
const options = { resamples: 2000, seed: 7 };

describe("bootstrap confidence intervals", () => {
  it("interpolates quantiles like numpy's default", () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([0, 10], 0.025)).toBeCloseTo(0.25, 12);
    expect(quantile([5], 0.9)).toBe(5);
  });

  it("gives the episode means as point estimates and intervals that contain them", () => {
    const s: Stratum = { a: tasks([0, 0.5, 1, 1, 0.25, 0.75]), b: tasks([1, 1, 1, 0.5, 1, 1]), paired: true };
    const r = bootstrapCompare([s], "x", options);
    expect(r.a.mean).toBeCloseTo(3.5 / 6, 12);
    expect(r.b.mean).toBeCloseTo(5.5 / 6, 12);
    expect(r.delta.mean).toBeCloseTo(2 / 6, 12);
    for (const i of [r.a, r.b, r.delta]) {
      expect(i.low).toBeLessThanOrEqual(i.mean);
      expect(i.high).toBeGreaterThanOrEqual(i.mean);
      expect(i.high).toBeGreaterThan(i.low);
    }
  });

  it("is reproducible from its seed and changes with it", () => {
    const a = [0, 0.31, 0.92, 1, 0.13, 0.47, 0.55, 0.08, 0.71, 0.66, 0.29, 0.83];
    const s: Stratum = { a: tasks(a), b: tasks(a.map((x, i) => Math.min(1, x + i / 37))), paired: true };
    const few = { resamples: 199, seed: 7 };
    expect(bootstrapCompare([s], "x", few)).toEqual(bootstrapCompare([s], "x", few));
    expect(bootstrapCompare([s], "x", few)).not.toEqual(bootstrapCompare([s], "x", { ...few, seed: 8 }));
  });

  it("paired draws give a constant per-task improvement a zero-width delta interval", () => {
    const a = [0, 0.2, 0.4, 0.1, 0.3];
    const s: Stratum = { a: tasks(a), b: tasks(a.map((x) => x + 0.5)), paired: true };
    const paired = bootstrapCompare([s], "x", options);
    expect(paired.delta.low).toBeCloseTo(0.5, 12);
    expect(paired.delta.high).toBeCloseTo(0.5, 12);
    const unpaired = bootstrapCompare([{ ...s, paired: false }], "x", options);
    expect(unpaired.delta.high - unpaired.delta.low).toBeGreaterThan(0.1);
  });

  it("weights tasks by their episodes, as the run's mean does", () => {
    const s: Stratum = {
      a: [
        { sum: 3, count: 3 },
        { sum: 0, count: 1 },
      ],
      b: tasks([1, 1]),
      paired: true,
    };
    expect(bootstrapCompare([s], "x", options).a.mean).toBe(0.75);
  });

  it("stratifies: every replicate draws from every scenario", () => {
    // Scenario 1 is all 0, scenario 2 all 1 (same size): each replicate's overall mean is exactly 0.5.
    const strata: Stratum[] = [
      { a: tasks([0, 0, 0]), b: tasks([0, 0, 0]), paired: true },
      { a: tasks([1, 1, 1]), b: tasks([1, 1, 1]), paired: true },
    ];
    const r = bootstrapCompare(strata, "overall", options);
    expect([r.a.low, r.a.high]).toEqual([0.5, 0.5]);
  });

  it("rejects a non-positive resample count", () => {
    expect(() => bootstrapCompare([], "x", { resamples: 0, seed: 1 })).toThrow(RangeError);
  });
});
