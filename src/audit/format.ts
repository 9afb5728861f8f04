/** Renders a reward audit (and its probes) as a plain-text report for the terminal. */
import type { ScenarioAudit } from "./run-audit.ts";
import type { ClassCount, ProbeAudit, ProbeResult } from "./run-probes.ts";

export function formatAudit(audits: readonly ScenarioAudit[]): string {
  const lines: string[] = [];
  for (const a of audits) {
    lines.push(`${a.scenario}: ${a.tasks} tasks, ${a.traces} traces (reference reward ${a.referenceReward})`);
    for (const [mode, trace] of Object.entries(a.worstFailing)) {
      lines.push(
        `  highest reward of a trace that fails the state check (${mode}): ${trace ? `${trace.rewards[mode as "paper"].toFixed(3)}  ${trace.task}  ${trace.source}` : "none failed"}`,
      );
    }
    lines.push(`  noop scores above 0 on ${(a.noopAboveZeroShare * 100).toFixed(1)}% of tasks`);
    lines.push(
      `  zero-variance groups (group size ${a.groupSize}): ${(a.zeroVarianceShare * 100).toFixed(1)}%`,
    );
    for (const warning of a.saturationWarnings) lines.push(`  WARNING saturation: ${warning}`);
    const paper = a.worstFailing.paper;
    if (paper) lines.push(`  near miss explained:\n${paper.explanation.replace(/^/gm, "    ")}`);
  }
  return lines.join("\n");
}

/** Probes per scenario: false passes and false fails, each named with its task and what it did. */
export function formatProbes(audits: readonly ProbeAudit[]): string {
  const lines = ["Probes generated from each task's expectation (must fail / must pass):"];
  const row = (r: ProbeResult) =>
    `    ${r.task}  ${r.kind}: ${r.detail}  (paper ${r.paper.toFixed(3)}, gated ${r.gated.toFixed(3)}, ${r.passed ? "passed" : "failed"})`;
  for (const a of audits) {
    const judged = a.results.filter((r) => !r.void);
    const fails = judged.filter((r) => r.must === "fail").length;
    lines.push(
      `  ${a.scenario}: ${a.tasks} tasks, ${a.results.length} probes (${fails} must fail, ${judged.length - fails} must pass, ${a.results.length - judged.length} void: the API normalised the value); false passes ${a.falsePasses.length}, false fails ${a.falseFails.length}; highest paper reward of a failing probe ${a.worstFailingPaper.toFixed(3)}`,
    );
    for (const r of a.falsePasses.slice(0, 5)) lines.push(`   FALSE PASS${row(r)}`);
    for (const r of a.falseFails.slice(0, 5)) lines.push(`   FALSE FAIL${row(r)}`);
  }
  return lines.join("\n");
}

/**
 * Per probe class, how many the reward judged wrong before the second pass (its rules off) and after:
 * false passes for must-fail classes, false fails for must-pass ones. A markdown table (docs use it as is).
 */
export function formatClassCounts(counts: readonly ClassCount[]): string {
  const row = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  const total = (k: "probes" | "wrongBefore" | "wrongAfter", must: string) =>
    counts.filter((c) => c.must === must).reduce((n, c) => n + c[k], 0);
  return [
    row(["probe class", "must", "probes", "judged wrong before the second pass", "judged wrong now"]),
    row(["---", "---", "---:", "---:", "---:"]),
    ...counts.map((c) => row([c.kind, c.must, c.probes, c.wrongBefore, c.wrongAfter])),
    ...(["fail", "pass"] as const).map((must) =>
      row([
        `**all ${must === "fail" ? "must-fail (false passes)" : "must-pass (false fails)"}**`,
        must,
        total("probes", must),
        total("wrongBefore", must),
        total("wrongAfter", must),
      ]),
    ),
  ].join("\n");
}
