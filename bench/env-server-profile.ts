/**
 * A CPU profile of the env server under the env bench's load (how docs/benchmarks.md's profiles were
 * taken): the bench's server child (env-server-process.ts) forked with `--cpu-prof`, loaded from this
 * process by `toolCallRounds` (256 calls in flight, ENG-1 repeated; `--distinct` for a different issue
 * each call) for 6 s after a 1 s warm-up. The profile is written into the folder given when the child
 * exits. `node --import tsx bench/env-server-profile.ts <folder> [--distinct]`
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { cpuOf } from "./measure.ts";
import { client, toolCallRounds } from "./tool-call-load.ts";

const [folder, mode] = process.argv.slice(2);
if (!folder) throw new Error("usage: bench/env-server-profile.ts <folder> [--distinct]");
const child = fork(fileURLToPath(new URL("./env-server-process.ts", import.meta.url)), [], {
  execArgv: ["--import", "tsx", "--cpu-prof", `--cpu-prof-dir=${folder}`],
});
const urls = await new Promise<{ gym: string }>((resolve) => child.once("message", resolve as never));
const post = client(urls.gym, 256);
const distinct = mode === "--distinct";
await toolCallRounds(post, 256, 1000, distinct);
const load = await toolCallRounds(post, 256, 6000, distinct, () => cpuOf(child));
console.log(
  `${Math.round(load.perSecond)} calls/s, ${load.calls} calls, server CPU ${(load.cpuUs / load.calls).toFixed(1)} µs/call (profiler on)`,
);
child.disconnect();
