import { Command, CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { AtlasGymError } from "../../errors.ts";
import { registerMcp } from "./mcp.ts";

/** Runs `atlas-gym mcp <args>` in process; every case here fails before anything is served. */
async function mcp(args: string[]): Promise<Error> {
  const program = new Command().exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  registerMcp(program);
  program.commands[0]!.exitOverride();
  return program.parseAsync(["node", "atlas-gym", "mcp", ...args]).then(
    () => new Error("served"),
    (error: Error) => error,
  );
}

describe("mcp flags", () => {
  it.each([
    [["--session", "ses-1"], "--session and --server go together"],
    [["--session", "ses-1", "--server", "ftp://x"], "--server must be an http(s) URL"],
    [["--session", "ses-1", "--server", "http://x", "--scenario", "a-v1"], "leave out --scenario"],
    [["--index", "3"], "add --scenario"],
    [["--scenario", "nope-v1"], 'Scenario "nope-v1" not found'],
    [["--scenario", "jira-transition-v1", "--index", "12"], "The eval split has 12 tasks"],
    [
      ["--tools", "rovo", "--scenario", "confluence-page-label-v1"],
      'Tool set "rovo" does not cover scenario',
    ],
  ])("mcp %j is a clean usage error", async (args, message) => {
    const error = await mcp(args);
    expect(error).toBeInstanceOf(AtlasGymError);
    expect(error.message).toContain(message);
  });

  it.each([
    [["--tools", "jira"], "Allowed choices are default, rovo, mcp-atlassian"],
    [["--seed", "-1"], "--seed must be an integer"],
  ])("mcp %j is refused by the option parser", async (args, message) => {
    const error = await mcp(args);
    expect(error).toBeInstanceOf(CommanderError);
    expect(error.message).toContain(message);
  });
});
