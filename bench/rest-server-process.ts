/**
 * The servers of the REST benchmark in their own process, so that the load generator's event loop and
 * CPU time do not mix with theirs; their addresses go to the parent over IPC, and on each "cpu" message
 * this process answers its CPU time so far (µs), from which the parent takes CPU per request.
 */
import { startRestServers } from "./rest-servers.ts";

const { close: _close, ...servers } = await startRestServers();
process.send!(servers);
process.on("message", (message) => {
  if (message !== "cpu") return;
  const { user, system } = process.cpuUsage();
  process.send!({ cpu: user + system });
});
process.on("disconnect", () => process.exit(0));
