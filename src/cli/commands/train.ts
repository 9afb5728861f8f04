/** `atlas-gym train`: starts the env server and the Python GRPO trainer (TRL) for a YAML config. */
import type { Command } from "commander";
import { parseIntegerOption } from "../options.ts";

interface TrainCliOptions {
  config: string;
  python?: string;
  grace: number;
  resume?: string;
  printConfig?: boolean;
  server?: string;
}

export function registerTrain(program: Command): void {
  program
    .command("train")
    .description("Train a model with GRPO (TRL) against the env server, from a YAML config")
    .requiredOption("--config <yaml>", "training config (see configs/ and src/train/config.ts)")
    .option(
      "--python <interpreter>",
      "Python interpreter for the trainer (default python/.venv/bin/python, else python3; or set ATLAS_GYM_PYTHON)",
    )
    .option(
      "--grace <seconds>",
      "how long the trainer may take to stop after Ctrl-C/SIGTERM before it is killed",
      parseIntegerOption("--grace", 1, 3600),
      30,
    )
    .option("--resume <dir>", "resume from a checkpoint-N/ or interrupted/ directory of an earlier run")
    .option(
      "--server <urls>",
      "use running env servers instead of starting one: a URL, a fleet's (serve --workers N), or several comma-separated (token: ATLAS_GYM_TOKEN)",
    )
    .option("--print-config", "print the validated config, defaults filled in, as JSON, and exit")
    .action(async (options: TrainCliOptions) => {
      if (options.printConfig) {
        const { loadTrainConfig } = await import("../../train/config.ts");
        const { SCENARIOS } = await import("../../scenarios/index.ts");
        const config = loadTrainConfig(
          options.config,
          SCENARIOS.map((s) => s.id),
        );
        console.log(JSON.stringify(config));
        return;
      }
      const { launchTraining } = await import("../../train/launch.ts");
      process.exitCode = await launchTraining({
        configPath: options.config,
        python: options.python ?? process.env.ATLAS_GYM_PYTHON,
        graceSeconds: options.grace,
        resume: options.resume,
        server: options.server,
      });
    });
}
