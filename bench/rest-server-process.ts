/**
 * The servers of the REST benchmark in their own process, so that the load generator's event loop and
 * CPU time do not mix with theirs; their addresses go to the parent over IPC.
 */
import { startRestServers } from "./rest-servers.ts";

const { close: _close, ...servers } = await startRestServers();
process.send!(servers);
process.on("disconnect", () => process.exit(0));
