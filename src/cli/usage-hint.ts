/**
 * What the CLI prints after a usage error (an unknown flag, a missing argument, a bad choice): the
 * error and one line saying where the help is, instead of the whole help text.
 */
import type { Command } from "commander";

/** The hint printed after a usage error of `command` (the program, or a command at any depth). */
export function usageHint(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.parent ? c.name() : "atlas-gym");
  return `(run \`${names.join(" ")} --help\` for usage)`;
}

/** Sets the one-line hint on the program and on every command below it (`report training` too). */
export function addUsageHints(program: Command): void {
  program.showHelpAfterError(usageHint(program));
  for (const command of program.commands) addUsageHints(command);
}
