/** `atlas-gym export`: writes a training dataset for an RL engine (TRL JSONL or verl parquet). */
import { type Command, Option } from "commander";
import { parseIntegerOption } from "../options.ts";

interface ExportCliOptions {
  format: "trl" | "verl";
  split: "eval" | "train";
  n?: number;
  start: number;
  scenario: string;
  out: string;
}

export function registerExport(program: Command): void {
  program
    .command("export")
    .description("Write a dataset of tasks for an RL engine: TRL (JSONL) or verl (parquet)")
    .addOption(
      new Option("--format <format>", "dataset format").choices(["trl", "verl"]).makeOptionMandatory(),
    )
    .addOption(new Option("--split <split>", "which split").choices(["eval", "train"]).default("train"))
    .option(
      "--n <n>",
      "tasks per scenario (default: 20 train, 12 eval)",
      parseIntegerOption("--n", 1, 1_000_000),
    )
    .option("--start <i>", "index of the first task", parseIntegerOption("--start", 0, 1_000_000_000), 0)
    .option(
      "--scenario <ids>",
      "comma-separated scenario ids, or 'in-family' (the trained families, default), 'heldout' or 'all'",
      "in-family",
    )
    .requiredOption("--out <path>", "file to write (.jsonl for trl, .parquet for verl)")
    .action(async (options: ExportCliOptions) => {
      const { selectScenarios } = await import("../../scenarios/index.ts");
      const { exportRows, writeDataset } = await import("../../train/export.ts");
      const scenarios = selectScenarios(options.scenario);
      const rows = exportRows({ scenarios, split: options.split, n: options.n, start: options.start });
      writeDataset(options.format, rows, options.out);
      console.log(
        `wrote ${rows.length} ${options.split} tasks (${scenarios.map((s) => s.id).join(", ")}) as ${options.format} to ${options.out}`,
      );
    });
}
