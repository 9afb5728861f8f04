/**
 * The state-space adversarial suite: probes generated mechanically from each task's Expectation and
 * reference script (src/audit/probes.ts), on every eval task and a sample of train tasks, executed
 * through real tool calls (or the REST facade's path). Every perturbed trace fails (gated ≤ 0.5,
 * paper < 0.8); every equivalent trace passes with paper ≥ 0.9; each scenario has a legitimate
 * alternative path that passes.
 */
import { describe, expect, it } from "vitest";
import { probeScenario } from "../src/audit/run-probes.ts";
import { tasksFor } from "../src/scenarios/frozen.ts";
import { SCENARIOS } from "../src/scenarios/index.ts";

const ALTERNATIVES = new Set([
  "alternative route",
  "another representation",
  "another accepted form",
  "one call per label",
  "search then get",
]);

describe.each(SCENARIOS.map((s) => [s.id, s] as const))("%s", (_id, scenario) => {
  const tasks = [...tasksFor(scenario, "eval"), ...tasksFor(scenario, "train", 4, 40)];
  const audit = probeScenario(scenario, tasks);
  const show = (rs: typeof audit.results) =>
    rs
      .slice(0, 3)
      .map((r) => `${r.task} ${r.kind}: ${r.detail}\n${r.explanation}`)
      .join("\n");

  it("generates perturbations and equivalents for every task", () => {
    for (const task of tasks) {
      const mine = audit.results.filter((r) => r.task === task.id);
      expect(mine.filter((r) => r.must === "fail").length, task.id).toBeGreaterThanOrEqual(3);
      expect(mine.filter((r) => r.must === "pass").length, task.id).toBeGreaterThanOrEqual(2);
    }
  });

  it("lets no perturbed trace pass: gated ≤ 0.5 and paper < 0.8", () => {
    expect(audit.falsePasses, show(audit.falsePasses)).toEqual([]);
    expect(audit.worstFailingPaper).toBeLessThan(0.8);
  });

  it("passes every equivalent trace with paper ≥ 0.9", () => {
    expect(audit.falseFails, show(audit.falseFails)).toEqual([]);
  });

  it("passes a legitimate alternative path with ≥ 0.9", () => {
    const alternatives = audit.results.filter((r) => ALTERNATIVES.has(r.kind));
    expect(alternatives.length).toBeGreaterThan(0);
    for (const r of alternatives) expect(r.paper, `${r.task} ${r.kind}`).toBeGreaterThanOrEqual(0.9);
  });
});
