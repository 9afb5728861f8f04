/**
 * `atlas-gym serve`: serves the simulated site over HTTP (default site at the root, isolated sites under
 * /s/<id>) and, on the same port, the env server (/health, /v1/...) whose sessions are also reachable
 * over REST under /s/<session id>.
 */
import { type Command, InvalidArgumentError, Option } from "commander";
import { parseIntegerOption } from "../options.ts";

export interface ServeOptions {
  port: number;
  host: string;
  seed: number;
  auth: boolean;
  sessionTtl: number;
  maxSessions: number;
  siteTtl: number;
  maxSites: number;
  journal?: string;
  token?: string;
  baseUrl?: string;
  workers?: number;
  fleetWorker?: number;
}

/** `--base-url`: an absolute http(s) URL, kept without a trailing slash. */
export function parseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(
      `--base-url must be an absolute URL such as https://acme.atlassian.net; got '${value}'.`,
    );
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash)
    throw new InvalidArgumentError(
      `--base-url must be an http(s) URL without query or fragment; got '${value}'.`,
    );
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

/** A duration such as `600`, `90s`, `10m` or `1h` (plain numbers are seconds), in milliseconds. */
export function parseDuration(flag: string) {
  return (value: string): number => {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
    const ms = match ? Number(match[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] ?? "s"]! : NaN;
    if (!(ms >= 1000) || ms > 7 * 86_400_000)
      throw new InvalidArgumentError(
        `${flag} must be a duration between 1s and 7 days, e.g. 600, 90s, 10m or 1h; got '${value}'.`,
      );
    return ms;
  };
}

/** A port that is taken (or not ours to bind) is the user's to fix: one line, not a stack trace. */
export function listenError(
  error: NodeJS.ErrnoException,
  options: Pick<ServeOptions, "host" | "port">,
  UsageError: new (message: string) => Error,
): Error {
  if (error.code === "EADDRINUSE")
    return new UsageError(
      `port ${options.port} is already in use on ${options.host}; choose another with --port`,
    );
  // EACCES from the file system (a journal folder it may not write) is no port problem.
  if (error.syscall !== undefined && error.syscall !== "listen" && error.path !== undefined)
    return new UsageError(
      `cannot use ${error.path} (${error.code} on ${error.syscall}); check the --journal folder and its permissions`,
    );
  if (error.code === "EACCES" || error.code === "EADDRNOTAVAIL")
    return new UsageError(
      `cannot listen on ${options.host}:${options.port} (${error.code}); choose another --port or --host`,
    );
  return error;
}

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "Serve the simulated Jira Cloud REST v3/v2 and Confluence Cloud v2/v1 APIs and the env-server API over HTTP",
    )
    .option("--port <n>", "port to listen on", parseIntegerOption("--port", 0, 65535), 4010)
    .option("--host <host>", "interface to bind (beyond loopback only with --token)", "127.0.0.1")
    .option("--seed <n>", "seed of the default fixture", parseIntegerOption("--seed", 0, 2 ** 32 - 1), 1)
    .option(
      "--auth",
      "require credentials: the Basic email and API token printed at start-up (or the --token)",
      false,
    )
    .addOption(
      new Option(
        "--session-ttl <duration>",
        "reap env-server sessions idle this long (seconds, or 90s, 10m, 1h)",
      )
        .argParser(parseDuration("--session-ttl"))
        .default(600_000, "600 s"),
    )
    .option(
      "--max-sessions <n>",
      "most env-server sessions open at once (more get HTTP 429)",
      parseIntegerOption("--max-sessions", 1, 1_000_000),
      4096,
    )
    .option(
      "--base-url <url>",
      "public URL clients reach the site at (self links and serverInfo use it), e.g. https://acme.atlassian.net",
      parseBaseUrl,
    )
    .addOption(
      new Option(
        "--site-ttl <duration>",
        "evict isolated sites (/s/<id>) idle this long (seconds, or 90s, 10m, 1h)",
      )
        .argParser(parseDuration("--site-ttl"))
        .default(3_600_000, "3600 s"),
    )
    .option(
      "--max-sites <n>",
      "most isolated sites held at once (a new one beyond that gets HTTP 429)",
      parseIntegerOption("--max-sites", 1, 1_000_000),
      10_000,
    )
    .option(
      "--journal <dir>",
      "journal every session's calls in <dir>; on start, rebuild the sessions journaled there (crash-safe)",
    )
    .option(
      "--token <token>",
      "require the token on every route but /health: Bearer <token>, or Basic <email>:<token> (or set ATLAS_GYM_TOKEN)",
    )
    .option(
      "--workers <n>",
      "run n server processes behind this port (a fleet: session affinity, per-worker journals in <journal>/w<k>, a dead worker restarted with its sessions)",
      parseIntegerOption("--workers", 1, 256),
    )
    .addOption(
      // Set by the fleet on its members: their session ids name them (see server/fleet/fleet-routes.ts).
      new Option("--fleet-worker <k>").argParser(parseIntegerOption("--fleet-worker", 0, 255)).hideHelp(),
    )
    .action(async (options: ServeOptions) => {
      if (options.workers !== undefined) {
        const { serveFleet } = await import("./serve-fleet.ts");
        return serveFleet(options);
      }
      const { startGymServer } = await import("../../server/start-gym-server.ts");
      const { UsageError } = await import("../../errors.ts");
      const token = options.token ?? process.env.ATLAS_GYM_TOKEN ?? null;
      const member = options.fleetWorker;
      const server = await startGymServer({
        ...options,
        worker: member,
        apiToken: member === undefined ? undefined : process.env.ATLAS_GYM_FLEET_API_TOKEN,
        token,
        sessionTtlMs: options.sessionTtl,
        maxSessions: options.maxSessions,
        siteTtlMs: options.siteTtl,
        maxSites: options.maxSites,
      }).catch((error: NodeJS.ErrnoException) => {
        throw listenError(error, options, UsageError);
      });
      console.log(`atlas-gym serving seed ${options.seed} at ${server.url}`);
      if (options.baseUrl) console.log(`  Links use the public base URL ${options.baseUrl}`);
      console.log(`  Jira:       ${server.url}/rest/api/3/myself  (also /rest/api/2)`);
      console.log(`  Confluence: ${server.url}/wiki/api/v2/spaces  (v1: /wiki/rest/api/content)`);
      console.log(
        `  Isolated sites: ${server.url}/s/<id>/...  (idle TTL ${options.siteTtl / 1000} s, at most ${options.maxSites}; DELETE /s/<id> frees one)`,
      );
      console.log(
        `  Env server: ${server.url}/v1/scenarios  (sessions: idle TTL ${options.sessionTtl / 1000} s, at most ${options.maxSessions}${token ? "; every route needs the token: Bearer, or Basic with it as API token" : ""})`,
      );
      if (server.restored)
        console.log(
          `  Journal:    ${options.journal} (${server.restored.restored.length} sessions rebuilt${server.restored.failed.length ? `, ${server.restored.failed.length} set aside: ${server.restored.failed.map((f) => `${f.id}: ${f.reason}`).join("; ")}` : ""})`,
        );
      console.log(`  MCP:        ${server.url}/mcp?tools=default|rovo|mcp-atlassian[&session=<session id>]`);
      if (server.credentials) {
        console.log(
          `  Basic auth: email ${server.credentials.email}  API token ${server.credentials.apiToken}`,
        );
      }
      const stop = () => server.close().then(() => process.exit(0));
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      // A supervised server (a fleet worker, `train`'s env server) ends with its supervisor, even a killed one.
      (await import("../../server/fleet/worker-process.ts")).exitWithSupervisor(stop);
    });
}
