/**
 * What the CLI prints after a usage error (an unknown flag, a missing argument, a bad choice): the
 * error and one line saying where the help is, instead of the whole help text.
 */
import type { Command } from "commander";

/** The hint printed after a usage error of `command` (a subcommand of the program, or the program). */
export function usageHint(command: Command): string {
  const path = command.parent ? `atlas-gym ${command.name()}` : "atlas-gym";
  return `(run \`${path} --help\` for usage)`;
}

/** Sets the one-line hint on the program and on each of its commands. */
export function addUsageHints(program: Command): void {
  program.showHelpAfterError(usageHint(program));
  for (const command of program.commands) command.showHelpAfterError(usageHint(command));
}
