import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../../bin/atlas-gym", import.meta.url));

describe("atlas-gym audit-reward --json", () => {
  it("prints snake_case keys like every other JSON atlas-gym writes", () => {
    const args = ["audit-reward", "--scenario", "jira-transition-v1", "--n", "1", "--samples", "2", "--json"];
    const [audit] = JSON.parse(execFileSync(BIN, args, { encoding: "utf8" }));
    expect(Object.keys(audit)).toEqual(
      expect.arrayContaining(["worst_failing", "noop_above_zero_share", "zero_variance_share", "group_size"]),
    );
    expect(Object.keys(audit).filter((key) => /[A-Z]/.test(key))).toEqual([]);
    // The probes generated from the task's expectation: none judged wrong (else the exit code is 2).
    expect(audit.probes.probes).toBeGreaterThan(0);
    expect(audit.probes.false_passes).toEqual([]);
    expect(audit.probes.false_fails).toEqual([]);
  });
});
