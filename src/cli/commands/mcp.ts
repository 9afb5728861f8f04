/**
 * `atlas-gym mcp`: an MCP server over stdio. Three modes: a free sandbox (a site of its own built from
 * --seed, every tool of the set), one task (--scenario/--split/--index: the episode's tools, its prompt
 * and score as resources), or an env-server session (--session/--server: relays to that server's /mcp
 * endpoint, so /v1/sessions/{sid}/score scores what the agent did over MCP). stdout is the protocol.
 */
import { type Command, Option } from "commander";
import { UsageError } from "../../errors.ts";
import { TOOL_SET_NAMES } from "../../tools/aliases/tool-sets.ts";
import { parseIntegerOption } from "../options.ts";

interface McpOptions {
  tools: "default" | "rovo" | "mcp-atlassian";
  seed?: number;
  scenario?: string;
  split?: "eval" | "train";
  index?: number;
  session?: string;
  server?: string;
  token?: string;
}

export function registerMcp(program: Command): void {
  program
    .command("mcp")
    .description(
      "Serve the simulated site as an MCP server over stdio (free sandbox, one task, or an env-server session)",
    )
    .addOption(
      new Option("--tools <set>", "tool names and argument shapes to offer")
        .choices(TOOL_SET_NAMES)
        .default("default"),
    )
    .option(
      "--seed <n>",
      "seed of the free sandbox's site (default 1), or of a train task",
      parseIntegerOption("--seed", 0, 2 ** 32 - 1),
    )
    .option("--scenario <id>", "serve one task of this scenario (with --split and --index)")
    .addOption(new Option("--split <split>", "split of the task (default eval)").choices(["eval", "train"]))
    .option(
      "--index <i>",
      "index of the task in its split (default 0)",
      parseIntegerOption("--index", 0, 1_000_000_000),
    )
    .option("--session <id>", "bind to this env-server session (from POST /v1/sessions; with --server)")
    .option("--server <url>", "base URL of the running `atlas-gym serve` that holds --session")
    .option("--token <token>", "bearer token of that server (its --token), if it has one")
    .action(async (options: McpOptions) => {
      const bridged = options.session !== undefined || options.server !== undefined;
      if (options.server === undefined && options.session !== undefined)
        throw new UsageError("--session and --server go together: the session lives in that server.");
      if (bridged && (options.scenario !== undefined || options.seed !== undefined))
        throw new UsageError("--session serves that session's task; leave out --scenario and --seed.");
      if (options.scenario === undefined && (options.split !== undefined || options.index !== undefined))
        throw new UsageError("--split and --index choose a task of --scenario; add --scenario <id>.");
      const url = bridged ? endpoint(options.server!, options.session ?? "", options.tools) : null;
      const stdio = () => import("../../server/mcp/stdio.ts");
      if (url) {
        // The server first: with nothing there, the address is what the user needs to hear about.
        await checkReachable(url, options.token);
        if (options.session === undefined)
          throw new UsageError(
            `--server ${url.origin} needs --session <id>, a session of that server (POST ${url.origin}/v1/sessions opens one).`,
          );
        return (await stdio()).bridgeStdio(url, options.token);
      }
      const binding = await import("../../server/mcp/mcp-binding.ts");
      const { createEpisode } = await import("../../env/episode.ts");
      const { DEFAULT_BASE_URL } = await import("../../sandbox/fixtures/default-site.ts");
      if (options.scenario === undefined) {
        const { createSite } = await import("../../sandbox/fixtures/default-site.ts");
        const site = createSite({ seed: options.seed ?? 1 });
        return (await stdio()).serveStdio(binding.createSiteBinding(site, options.tools, DEFAULT_BASE_URL));
      }
      // Unknown scenarios and out-of-range tasks are EnvRequestErrors, which print as clean errors.
      const { createTaskSource } = await import("../../server/task-source.ts");
      const { scenario, task, site } = createTaskSource().resolve({
        scenario: options.scenario,
        split: options.split ?? "eval",
        index: options.index ?? 0,
        seed: options.seed,
      });
      const episode = createEpisode(scenario, task, { initialSite: site, toolSet: options.tools });
      return (await stdio()).serveStdio(binding.createEpisodeBinding(episode, options.tools));
    });
}

/** The /mcp endpoint of a server for a session and tool set. */
function endpoint(server: string, session: string, tools: string): URL {
  let url: URL;
  try {
    url = new URL("/mcp", server);
  } catch {
    throw new UsageError(`--server must be a URL such as http://127.0.0.1:4010, got '${server}'.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`--server must be an http(s) URL, got '${server}'.`);
  url.searchParams.set("session", session);
  url.searchParams.set("tools", tools);
  return url;
}

/**
 * Fails (exit 1, the address in the message) when no atlas-gym serve answers at the server: nothing
 * listening, or another kind of server (its /health is not serve's `{"status":"ok"}`), before relaying anything.
 */
async function checkReachable(url: URL, token?: string): Promise<void> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const refuse = (why: string) =>
    new UsageError(
      `No atlas-gym serve answers at ${url.origin} (${why}); start one with \`atlas-gym serve\` or give its address with --server.`,
    );
  let response: Response;
  try {
    response = await fetch(new URL("/health", url), { headers, signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw refuse(cause?.code ?? cause?.message ?? (error as Error).message);
  }
  const body = (await response.json().catch(() => null)) as { status?: unknown } | null;
  if (!response.ok || body?.status !== "ok")
    throw refuse(`GET /health answered HTTP ${response.status}, not atlas-gym's {"status":"ok"}`);
}
