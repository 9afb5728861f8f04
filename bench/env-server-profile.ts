/**
 * A CPU profile of the env server under the env bench's load (how docs/benchmarks.md's profiles were
 * taken): the bench's server child (env-server-process.ts) forked with `--cpu-prof`, loaded from this
 * process by `toolCallRounds` (256 calls in flight; the mix of reads as tool-call-load.ts's `Mix`:
 * `repeat`, the default, `group` or `fresh`) for four rounds of 1.5 s after a 1 s warm-up. The profile is written into
 * the folder given when the child exits. `node --import tsx bench/env-server-profile.ts <folder> [mix]`
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { cpuOf } from "./measure.ts";
import { client, type Mix, toolCallRounds } from "./tool-call-load.ts";

const [folder, mix = "repeat"] = process.argv.slice(2);
if (!folder || !["repeat", "group", "fresh"].includes(mix))
  throw new Error("usage: bench/env-server-profile.ts <folder> [repeat|group|fresh]");
const child = fork(fileURLToPath(new URL("./env-server-process.ts", import.meta.url)), [], {
  execArgv: ["--import", "tsx", "--cpu-prof", `--cpu-prof-dir=${folder}`],
});
const urls = await new Promise<{ gym: string }>((resolve) => child.once("message", resolve as never));
const post = client(urls.gym, 256);
await toolCallRounds(post, 256, 1000, mix as Mix);
// Four timed rounds of 1.5 s, as the bench's: one 6 s round opens its sessions all at once, past the
// servers' session limit (10,000) at these rates.
let [calls, cpuUs] = [0, 0];
for (let round = 0; round < 4; round++) {
  const load = await toolCallRounds(post, 256, 1500, mix as Mix, () => cpuOf(child));
  [calls, cpuUs] = [calls + load.calls, cpuUs + load.cpuUs];
}
console.log(`${calls} calls, server CPU ${(cpuUs / calls).toFixed(1)} µs/call (profiler on)`);
child.disconnect();
