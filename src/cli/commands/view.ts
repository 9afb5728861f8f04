/**
 * `atlas-gym view [RUN_DIR|PARENT_DIR ...]`: a local web app over eval run directories (runs, episodes,
 * one episode, compare), a running env server's sessions (`--env`), and Play (a task by hand, saved as
 * a run). It listens on loopback by default (beyond it only with --token) and prints its URL.
 */
import { type Command, InvalidArgumentError } from "commander";
import { parseIntegerOption } from "../options.ts";

interface ViewFlags {
  port: number;
  host: string;
  token?: string;
  env?: string;
  envToken?: string;
  playOut: string;
}

/** `--env`: an absolute http(s) URL. */
function parseEnvUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {}
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:"))
    throw new InvalidArgumentError(
      `--env must be the env server's http(s) URL, e.g. http://127.0.0.1:4010; got '${value}'.`,
    );
  return value.replace(/\/+$/, "");
}

export function registerView(program: Command): void {
  program
    .command("view")
    .description(
      "Web app to read eval runs, compare them, watch a running env server and play a task by hand",
    )
    .argument("[dirs...]", "eval run directories, or folders holding them (default: out)")
    .option(
      "--port <n>",
      "port to listen on (0: any free port)",
      parseIntegerOption("--port", 0, 65535),
      4020,
    )
    .option("--host <host>", "interface to bind (beyond loopback only with --token)", "127.0.0.1")
    .option(
      "--token <token>",
      "require this token (printed in the URL) on every page (or set ATLAS_GYM_VIEW_TOKEN)",
    )
    .option("--env <url>", "a running env server (atlas-gym serve) to watch live", parseEnvUrl)
    .option("--env-token <token>", "the env server's bearer token (default: ATLAS_GYM_TOKEN)")
    .option("--play-out <dir>", "where Play saves episodes as runs", "out/play")
    .action(async (dirs: string[], flags: ViewFlags) => {
      const { startViewServer } = await import("../../view/start-view-server.ts");
      const token = flags.token ?? process.env.ATLAS_GYM_VIEW_TOKEN ?? null;
      const server = await startViewServer({
        roots: dirs.length ? dirs : ["out"],
        playOut: flags.playOut,
        port: flags.port,
        host: flags.host,
        token,
        env: flags.env,
        envToken: flags.envToken ?? process.env.ATLAS_GYM_TOKEN ?? null,
      });
      console.log(`atlas-gym view at ${server.url}/${token ? `?token=${encodeURIComponent(token)}` : ""}`);
      console.log(
        `  Runs from: ${(dirs.length ? dirs : ["out"]).join(", ")} (new runs appear without a restart)`,
      );
      const { existsSync } = await import("node:fs");
      for (const dir of dirs.filter((d) => !existsSync(d)))
        console.error(
          `note: ${dir} does not exist (yet): runs written there will appear; check the path if none do`,
        );
      if (flags.env) console.log(`  Live:      ${server.url}/live  (env server ${flags.env})`);
      console.log(`  Play:      ${server.url}/play  (saved runs go to ${flags.playOut})`);
      const stop = () => server.close().then(() => process.exit(0));
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}
