import { describe, expect, it } from "vitest";
import { passHatK, passHatKForTask } from "./pass-hat-k.ts";

describe("pass^k (tau-bench estimator)", () => {
  it("is C(c,k)/C(n,k) per task", () => {
    expect(passHatKForTask(4, 2, 2)).toBeCloseTo(1 / 6, 12);
    expect(passHatKForTask(4, 3, 2)).toBeCloseTo(3 / 6, 12);
    expect(passHatKForTask(5, 5, 3)).toBe(1);
    expect(passHatKForTask(5, 2, 3)).toBe(0);
    expect(passHatKForTask(8, 6, 1)).toBeCloseTo(0.75, 12);
  });

  it("with n = k is the share of tasks whose every sample passed", () => {
    const tasks = [
      { n: 3, c: 3 },
      { n: 3, c: 2 },
      { n: 3, c: 0 },
      { n: 3, c: 3 },
    ];
    expect(passHatK(tasks, 3)).toBe(0.5);
    expect(passHatK(tasks, 1)).toBeCloseTo((1 + 2 / 3 + 0 + 1) / 4, 12);
  });

  it("leaves out tasks with fewer than k samples and is null when none has k", () => {
    expect(
      passHatK(
        [
          { n: 2, c: 2 },
          { n: 1, c: 0 },
        ],
        2,
      ),
    ).toBe(1);
    expect(passHatK([{ n: 1, c: 1 }], 2)).toBeNull();
  });

  it("rejects impossible counts", () => {
    expect(() => passHatKForTask(2, 3, 1)).toThrow(RangeError);
    expect(() => passHatKForTask(2, 1, 3)).toThrow(/at least 3 samples/);
    expect(() => passHatKForTask(2, 1, 0)).toThrow(RangeError);
  });
});
