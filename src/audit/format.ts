/** Renders a reward audit as a plain-text report for the terminal. */
import type { ScenarioAudit } from "./run-audit.ts";

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
