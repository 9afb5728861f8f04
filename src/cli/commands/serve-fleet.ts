/**
 * `atlas-gym serve --workers N`: starts the fleet (server/fleet/start-fleet.ts) with the serve options
 * passed on to every worker, and prints where it serves, like a single `serve` does. With `--auth` the
 * workers share one API token, so Basic auth holds whichever worker a request reaches. Like `serve`, it
 * listens beyond loopback only with a token.
 */
import { UsageError } from "../../errors.ts";
import { createCredentials } from "../../http/start-server.ts";
import { startFleet } from "../../server/fleet/start-fleet.ts";
import { listenError, type ServeOptions } from "./serve.ts";

export async function serveFleet(options: ServeOptions): Promise<void> {
  const workers = options.workers!;
  const token = options.token ?? process.env.ATLAS_GYM_TOKEN ?? null;
  const credentials = createCredentials(options.auth);
  // The token (and the Basic API token of --auth) reach the workers through their environment, not their
  // command lines; without a token the fleet refuses to listen beyond loopback, as a single `serve` does
  // (src/http/listen-guard.ts). A --journal in use by another fleet is refused with a UsageError too.
  const fleet = await startFleet({
    workers,
    port: options.port,
    host: options.host,
    token,
    credentials,
    journal: options.journal,
    publicUrl: options.baseUrl ?? null,
    args: workerArgs(options),
    log: (line) => console.error(line),
  }).catch((error: NodeJS.ErrnoException) => {
    throw listenError(error, options, UsageError);
  });
  console.log(`atlas-gym serving seed ${options.seed} at ${fleet.url}`);
  console.log(
    `  Fleet:      ${workers} worker processes behind this port (sessions stay on the worker that opened them; ${fleet.url}/health lists them${token || credentials ? " to a caller with credentials" : ""})`,
  );
  console.log(
    `  Journals:   ${fleet.journal}/w0${workers > 1 ? ` .. w${workers - 1}` : ""}${options.journal ? "" : " (temporary, removed on exit)"}`,
  );
  console.log(`  Jira:       ${fleet.url}/rest/api/3/myself  (the default site lives on worker 0)`);
  console.log(`  Env server: ${fleet.url}/v1/scenarios${token ? "  (bearer token required)" : ""}`);
  if (credentials) console.log(`  Basic auth: email ${credentials.email}  API token ${credentials.apiToken}`);
  const stop = () => fleet.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

/** The serve options every worker gets (the port, journal, token and --auth are the fleet's to give). */
function workerArgs(options: ServeOptions): string[] {
  const args = [
    "--seed",
    String(options.seed),
    "--session-ttl",
    `${options.sessionTtl}ms`,
    "--max-sessions",
    String(options.maxSessions),
    "--site-ttl",
    `${options.siteTtl}ms`,
    "--max-sites",
    String(options.maxSites),
  ];
  if (options.baseUrl) args.push("--base-url", options.baseUrl);
  return args;
}
