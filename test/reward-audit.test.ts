/**
 * Reward integrity: over every scenario's eval tasks, the scripted policies and seeded near-miss traces
 * never let a trace that fails the end-state check reach the reference's reward in any mode, nor more
 * than 0.5 in gated mode.
 */
import { describe, expect, it } from "vitest";
import { auditScenario } from "../src/audit/run-audit.ts";
import { tasksFor } from "../src/scenarios/frozen.ts";
import { SCENARIOS } from "../src/scenarios/index.ts";

describe.each(SCENARIOS.map((s) => [s.id, s] as const))("%s", (_id, scenario) => {
  const audit = auditScenario(scenario, tasksFor(scenario, "eval"), { samples: 12, groupSize: 8, seed: 7 });

  it("audits a real population of traces, some of which fail the state check", () => {
    expect(audit.traces).toBeGreaterThan(12 * 12);
    expect(audit.worstFailing.paper).not.toBeNull();
  });

  it("no failing trace reaches the reference's reward in any mode", () => {
    expect(audit.referenceReward).toBe(1);
    for (const [mode, trace] of Object.entries(audit.worstFailing)) {
      if (trace)
        expect(trace.rewards[mode as "paper"], `${mode}: ${trace.source}\n${trace.explanation}`).toBeLessThan(
          audit.referenceReward,
        );
    }
    expect(audit.saturationWarnings).toEqual([]);
  });

  it("gives a failing trace at most 0.5 in gated mode and 0 in state mode", () => {
    expect(audit.worstFailing.gated!.rewards.gated).toBeLessThanOrEqual(0.5);
    expect(audit.worstFailing.state!.rewards.state).toBe(0);
  });

  it("never rewards doing nothing", () => {
    expect(audit.noopAboveZeroShare).toBe(0);
  });
});
