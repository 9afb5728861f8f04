/** `atlas-gym report`: reports from run directories; `report training <dir>` charts a training run's dynamics. */
import type { Command } from "commander";

export function registerReport(program: Command): void {
  const report = program.command("report").description("Write a report from a run directory");
  report
    .command("training <dir>")
    .description(
      "Chart a training run (mean reward with the group min/max band, zero-variance share, KL, ...) as HTML with inline SVG",
    )
    .option("--out <file>", "where to write the HTML (default <dir>/training_report.html)")
    .action(async (dir: string, options: { out?: string }) => {
      const { writeTrainingReport } = await import("../../train/training-report.ts");
      const { path, steps } = await writeTrainingReport(dir, options.out);
      console.log(`wrote ${path} (${steps} steps)`);
    });
}
