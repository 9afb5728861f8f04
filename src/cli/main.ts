/**
 * The atlas-gym CLI. Each command lives in its own file under commands/ and is loaded lazily, so
 * `--help` stays fast and a command's dependencies load only when it runs.
 */
import { Command } from "commander";
import { registerServe } from "./commands/serve.ts";

const program = new Command()
  .name("atlas-gym")
  .description("Simulated Jira Cloud and Confluence Cloud for training and evaluating tool-using LLM agents.")
  .version("0.1.0")
  .showHelpAfterError();

registerServe(program);

await program.parseAsync(process.argv);
