/** `atlas-gym serve`: serves the simulated site over HTTP (default site at the root, isolated sites under /s/<id>). */
import type { Command } from "commander";
import { parseIntegerOption } from "../options.ts";

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("Serve the simulated Jira Cloud REST v3 and Confluence Cloud v2 APIs over HTTP")
    .option("--port <n>", "port to listen on", parseIntegerOption("--port", 0, 65535), 4010)
    .option("--host <host>", "interface to bind", "127.0.0.1")
    .option("--seed <n>", "seed of the default fixture", parseIntegerOption("--seed", 0, 2 ** 32 - 1), 1)
    .option("--auth", "require Basic auth with the credentials printed at start-up", false)
    .action(async (options: { port: number; host: string; seed: number; auth: boolean }) => {
      const { startServer } = await import("../../http/start-server.ts");
      const server = await startServer(options);
      console.log(`atlas-gym serving seed ${options.seed} at ${server.url}`);
      console.log(`  Jira:       ${server.url}/rest/api/3/myself`);
      console.log(`  Confluence: ${server.url}/wiki/api/v2/spaces`);
      console.log(`  Isolated sites: ${server.url}/s/<id>/...`);
      if (server.credentials) {
        console.log(
          `  Basic auth: email ${server.credentials.email}  API token ${server.credentials.apiToken}`,
        );
      }
      const stop = () => server.close().then(() => process.exit(0));
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}
