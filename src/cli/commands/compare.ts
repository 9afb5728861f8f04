/**
 * `atlas-gym compare <dirA> <dirB>`: the paper-style table of two finished eval runs — per scenario,
 * A's and B's mean reward, pass rate and pass^k and their deltas, with seeded bootstrap confidence
 * intervals, and per horizon for runs with workflow tasks (progress rate too) — printed and written as
 * compare.md and compare.json (into dirB, or --out). Runs over different tasks are refused unless
 * --common-tasks.
 */
import { type Command, InvalidArgumentError } from "commander";
import { parseIntegerOption } from "../options.ts";

interface CompareFlags {
  out?: string;
  resamples: number;
  seed: number;
  level: number;
  commonTasks: boolean;
}

function parseLevel(value: string): number {
  const x = Number(value);
  if (!/^0?\.\d+$/.test(value.trim()) || !(x > 0 && x < 1))
    throw new InvalidArgumentError(`--level must be a number between 0 and 1 (e.g. 0.95), got '${value}'.`);
  return x;
}

export function registerCompare(program: Command): void {
  program
    .command("compare")
    .description(
      "Compare two eval runs: mean reward, pass rate and pass^k per scenario, deltas with bootstrap confidence intervals",
    )
    .argument("<dirA>", "baseline run directory (has results.json and episodes.jsonl)")
    .argument("<dirB>", "run directory compared against the baseline")
    .option("--out <dir>", "where to write compare.md and compare.json (default: dirB)")
    .option("--resamples <n>", "bootstrap resamples", parseIntegerOption("--resamples", 100, 1_000_000), 2000)
    .option("--seed <s>", "bootstrap seed", parseIntegerOption("--seed", 0, 2 ** 31 - 1), 0)
    .option("--level <p>", "confidence level", parseLevel, 0.95)
    .option(
      "--common-tasks",
      "compare only the tasks both runs hold (runs over different tasks or frozen splits are refused otherwise)",
      false,
    )
    .action(async (dirA: string, dirB: string, flags: CompareFlags) => {
      const { mkdirSync, writeFileSync } = await import("node:fs");
      const { join } = await import("node:path");
      const { compareRuns, loadRun } = await import("../../eval/compare.ts");
      const { compareMarkdown, compareText } = await import("../../eval/compare-report.ts");
      const { HELD_OUT } = await import("../../scenarios/index.ts");
      const comparison = compareRuns(loadRun(dirA), loadRun(dirB), flags, HELD_OUT);
      const out = flags.out ?? dirB;
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, "compare.json"), `${JSON.stringify(comparison, null, 2)}\n`);
      writeFileSync(join(out, "compare.md"), compareMarkdown(comparison));
      console.log(compareText(comparison));
      console.log(`\nwrote ${join(out, "compare.md")} and ${join(out, "compare.json")}`);
    });
}
