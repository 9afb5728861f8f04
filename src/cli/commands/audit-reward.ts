/**
 * `atlas-gym audit-reward`: checks the rewards for holes with scripted policies, seeded perturbations
 * and the probes generated from each task's Expectation (false passes and false fails per scenario;
 * exit code 2 when there is any, or a saturation warning), and per probe class how many were judged
 * wrong before the second pass (its rules off, src/reward/rules.ts) and now.
 */
import type { Command } from "commander";
import { parseIntegerOption } from "../options.ts";

interface AuditCliOptions {
  scenario: string;
  samples: number;
  groupSize: number;
  seed: number;
  split: "eval" | "train";
  n?: number;
  json: boolean;
}

export function registerAuditReward(program: Command): void {
  program
    .command("audit-reward")
    .description("Audit the rewards: scripted policies and seeded near-miss traces per task")
    .option("--scenario <id>", "scenario id, or 'all'", "all")
    .option("--samples <n>", "perturbed traces per task", parseIntegerOption("--samples", 0, 10_000), 20)
    .option(
      "--group-size <n>",
      "GRPO group size for the zero-variance share",
      parseIntegerOption("--group-size", 2, 1024),
      8,
    )
    .option("--seed <n>", "seed of the perturbations", parseIntegerOption("--seed", 0, 2 ** 32 - 1), 1)
    .option("--split <split>", "eval or train", "eval")
    .option(
      "--n <n>",
      "tasks per scenario (default: the whole eval split, or 20 train tasks)",
      parseIntegerOption("--n", 1, 100_000),
    )
    .option("--json", "print the audit as JSON", false)
    .action(async (options: AuditCliOptions) => {
      const { SCENARIOS, findScenario } = await import("../../scenarios/index.ts");
      const { tasksFor } = await import("../../scenarios/frozen.ts");
      const { auditScenario } = await import("../../audit/run-audit.ts");
      const { countByClass, probeScenario } = await import("../../audit/run-probes.ts");
      const { formatAudit, formatClassCounts, formatProbes } = await import("../../audit/format.ts");
      const { UsageError } = await import("../../errors.ts");
      if (options.split !== "eval" && options.split !== "train")
        throw new UsageError("--split must be eval or train");
      const scenarios = options.scenario === "all" ? SCENARIOS : [findScenario(options.scenario)];
      const audits = scenarios.map((s) => auditScenario(s, tasksFor(s, options.split, options.n), options));
      const probes = scenarios.map((s) => probeScenario(s, tasksFor(s, options.split, options.n)));
      const { renameKeys, snakeCase } = await import("../../eval/json-keys.ts");
      const classes = countByClass(probes);
      const json = () =>
        JSON.stringify(
          audits.map((a, i) => {
            const { results, ...probe } = probes[i]!;
            return {
              ...renameKeys(a, snakeCase),
              probes: {
                ...renameKeys(probe, snakeCase),
                probes: results.length,
                by_class: countByClass([probes[i]!]).map((c) => renameKeys(c, snakeCase)),
              },
            };
          }),
          null,
          2,
        );
      const beforeAfter = `Probe classes, judged with the second pass's rules off (before) and on (now):\n${formatClassCounts(classes)}`;
      console.log(
        options.json ? json() : `${formatAudit(audits)}\n\n${formatProbes(probes)}\n\n${beforeAfter}`,
      );
      const holes = probes.some((p) => p.falsePasses.length + p.falseFails.length > 0);
      if (holes || audits.some((a) => a.saturationWarnings.length > 0)) process.exitCode = 2;
    });
}
