/**
 * The servers of the env-server benchmark in their own process (see env-servers.ts), so the load
 * generator's CPU time does not mix with theirs: their addresses go to the parent over IPC, and each
 * "cpu" message is answered with this process's CPU time so far (µs).
 */
import { startEnvServers } from "./env-servers.ts";

const { gym, bare, sameBytes } = await startEnvServers();
process.send!({ gym: gym.url, bare, sameBytes });
process.on("message", (message) => {
  if (message !== "cpu") return;
  const { user, system } = process.cpuUsage();
  process.send!({ cpu: user + system });
});
process.on("disconnect", () => process.exit(0));
