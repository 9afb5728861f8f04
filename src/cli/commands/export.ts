/**
 * `atlas-gym export`: writes a training dataset for an RL engine (TRL JSONL or verl parquet; for verl also
 * the agent-loop config every Ray worker loads, pointing at the env server).
 */
import { type Command, Option } from "commander";
import { UsageError } from "../../errors.ts";
import { REWARD_MODES, type RewardMode } from "../../reward/score.ts";
import { parseIntegerOption } from "../options.ts";

interface ExportCliOptions {
  format: "trl" | "verl";
  split: "eval" | "train";
  n?: number;
  start: number;
  scenario: string;
  out: string;
  envUrl: string;
  agentLoopConfig?: string;
  reward?: RewardMode;
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
    .option(
      "--env-url <url>",
      "verl: the env server as every Ray node reaches it (serve with --host and --token on several nodes; comma-separated URLs: several servers, taken in turn)",
      "http://127.0.0.1:4010",
    )
    .option(
      "--agent-loop-config <path>",
      "verl: where to write the agent-loop config (default: agent_loop.yaml beside --out)",
    )
    .addOption(
      new Option(
        "--reward <mode>",
        "verl: reward mode the loop asks /score for (default: the server's, paper)",
      ).choices(REWARD_MODES),
    )
    .action(async (options: ExportCliOptions) => {
      if (!/^https?:\/\/[^/\s]+/.test(options.envUrl))
        throw new UsageError(`--env-url must look like http://10.0.0.5:4010, got "${options.envUrl}"`);
      const { isHeldOut, selectScenarios } = await import("../../scenarios/index.ts");
      const { exportRows, writeDataset, writeVerlAgentLoopConfig } = await import("../../train/export.ts");
      const scenarios = selectScenarios(options.scenario);
      const heldOut = scenarios.filter((s) => isHeldOut(s.id)).map((s) => s.id);
      if (heldOut.length > 0 && options.split === "train")
        console.error(
          `note: ${heldOut.join(", ")} ${heldOut.length > 1 ? "are held-out families" : "is a held-out family"}, kept out of training (atlas-gym train refuses ${heldOut.length > 1 ? "them" : "it"}); training on this dataset spoils the held-out evaluation`,
        );
      if (options.format === "trl" && !/\.jsonl?$/i.test(options.out))
        console.error(
          `note: --format trl writes JSON lines; ${options.out} gets JSONL whatever its name says`,
        );
      const rows = exportRows({ scenarios, split: options.split, n: options.n, start: options.start });
      writeDataset(options.format, rows, options.out);
      console.log(
        `wrote ${rows.length} ${options.split} task${rows.length === 1 ? "" : "s"} (${scenarios.map((s) => s.id).join(", ")}) as ${options.format} to ${options.out}`,
      );
      if (options.format === "verl") {
        const { dirname, join } = await import("node:path");
        const path = options.agentLoopConfig ?? join(dirname(options.out), "agent_loop.yaml");
        writeVerlAgentLoopConfig(path, { envUrl: options.envUrl, rewardMode: options.reward });
        console.log(`wrote the verl agent-loop config (env server ${options.envUrl}) to ${path}`);
      }
    });
}
