/** `atlas-gym tasks`: prints a scenario's tasks (eval from the frozen split, train generated), or freezes the eval split. */
import { type Command, Option } from "commander";
import { UsageError } from "../../errors.ts";
import type { Task } from "../../scenarios/define-scenario.ts";
import { parseIntegerOption } from "../options.ts";

interface TasksOptions {
  scenario: string;
  split: "eval" | "train";
  n?: number;
  start: number;
  json: boolean;
  freeze: boolean;
}

/**
 * A task as `tasks --json` prints it: snake_case, `task_id` as in every other file atlas-gym writes; a
 * workflow task carries `steps` (the scenario id of each step's family, in order).
 */
export function taskJson({ id, ...rest }: Task): Record<string, unknown> {
  return { task_id: id, ...rest };
}

export function registerTasks(program: Command): void {
  program
    .command("tasks")
    .description("Print the tasks of a scenario")
    .requiredOption("--scenario <id>", "scenario id, e.g. jira-transition-v1 (or 'all')")
    .addOption(new Option("--split <split>", "which split").choices(["eval", "train"]).default("eval"))
    .option("--n <n>", "number of tasks", parseIntegerOption("--n", 1, 1_000_000))
    .option("--start <i>", "index of the first task", parseIntegerOption("--start", 0, 1_000_000_000), 0)
    .option("--json", "one JSON task per line", false)
    .option(
      "--freeze",
      "regenerate and write the frozen eval split (after adding a scenario or bumping its version)",
      false,
    )
    .action(async (options: TasksOptions) => {
      const { SCENARIOS, findScenario } = await import("../../scenarios/index.ts");
      const { freezeEvalSplit, tasksFor } = await import("../../scenarios/frozen.ts");
      const scenarios = options.scenario === "all" ? SCENARIOS : [findScenario(options.scenario)];
      for (const scenario of scenarios) {
        if (options.freeze) {
          if (options.split !== "eval") throw new UsageError("--freeze applies to the eval split only");
          const frozen = freezeEvalSplit(scenario);
          console.log(
            `froze ${frozen.tasks.length} eval tasks of ${scenario.id} (sha256 ${frozen.sha256.slice(0, 12)})`,
          );
          continue;
        }
        for (const task of tasksFor(scenario, options.split, options.n, options.start)) {
          console.log(
            options.json
              ? JSON.stringify(taskJson(task))
              : `${task.id}  level ${task.level}  seed ${task.seed}${task.steps ? `  steps ${task.steps.join(" > ")}` : ""}\n  ${task.prompt}`,
          );
        }
      }
    });
}
