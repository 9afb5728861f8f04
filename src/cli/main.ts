/**
 * The atlas-gym CLI. Each command lives in its own file under commands/ and is loaded lazily, so
 * `--help` stays fast and a command's dependencies load only when it runs.
 */
import { Command } from "commander";
import { AtlasGymError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { registerAuditReward } from "./commands/audit-reward.ts";
import { registerCompare } from "./commands/compare.ts";
import { registerDocs } from "./commands/docs.ts";
import { registerEval } from "./commands/eval.ts";
import { registerExport } from "./commands/export.ts";
import { registerMcp } from "./commands/mcp.ts";
import { registerReport } from "./commands/report.ts";
import { registerServe } from "./commands/serve.ts";
import { registerTasks } from "./commands/tasks.ts";
import { registerTrain } from "./commands/train.ts";
import { registerView } from "./commands/view.ts";
import { addUsageHints } from "./usage-hint.ts";

// Output piped into a reader that stops early (`atlas-gym tasks | head`) ends the command quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(0);
});

const program = new Command()
  .name("atlas-gym")
  .description("Simulated Jira Cloud and Confluence Cloud for training and evaluating tool-using LLM agents.")
  .version(VERSION);

registerServe(program);
registerMcp(program);
registerTasks(program);
registerAuditReward(program);
registerEval(program);
registerCompare(program);
registerExport(program);
registerTrain(program);
registerReport(program);
registerView(program);
registerDocs(program);
addUsageHints(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // Framework errors are the user's to fix: show the message, not a stack trace. Anything else is a bug.
  if (!(error instanceof AtlasGymError)) throw error;
  console.error(`error: ${error.message}`);
  process.exitCode = 1;
}
