/**
 * A CPU profile of the env server under the env bench's load (how docs/benchmarks.md's profiles were
 * taken): the bench's server child (env-server-process.ts) forked with `--cpu-prof`, loaded from this
 * process by `toolCallRounds` (256 calls in flight; the mix of reads as tool-call-load.ts's `Mix`:
 * `repeat`, the default, `group` or `fresh`), or the same-bytes ceiling's route with the same load
 * (`same`, to set a tool call's profile beside the ceiling's), for four rounds of 1.5 s after a 1 s
 * warm-up, sampling every 100 µs. The profile is written into the folder given when the child exits.
 * `node --import tsx bench/env-server-profile.ts <folder> [repeat|group|fresh|same]`
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { cpuOf } from "./measure.ts";
import { CALL_ARGS, client, type Load, type Mix, postRounds, toolCallRounds } from "./tool-call-load.ts";

const [folder, mix = "repeat"] = process.argv.slice(2);
if (!folder || !["repeat", "group", "fresh", "same"].includes(mix))
  throw new Error("usage: bench/env-server-profile.ts <folder> [repeat|group|fresh|same]");
const child = fork(fileURLToPath(new URL("./env-server-process.ts", import.meta.url)), [], {
  execArgv: ["--import", "tsx", "--cpu-prof", "--cpu-prof-interval=100", `--cpu-prof-dir=${folder}`],
});
const urls = await new Promise<{ gym: string; bare: string }>((resolve) =>
  child.once("message", resolve as never),
);
const post = client(urls.gym, 256);
const postBare = client(urls.bare, 256);
const body = JSON.stringify({ arguments: CALL_ARGS });
const load = async (ms: number): Promise<Load & { cpuUs: number }> => {
  if (mix !== "same") return toolCallRounds(post, 256, ms, mix as Mix, () => cpuOf(child));
  const before = await cpuOf(child);
  const answered = await postRounds(postBare, "/same", body, 256, ms);
  return { ...answered, cpuUs: (await cpuOf(child)) - before };
};
await load(1000);
// Four timed rounds of 1.5 s, as the bench's: one 6 s round opens its sessions all at once, past the
// servers' session limit (10,000) at these rates.
let [calls, cpuUs] = [0, 0];
for (let round = 0; round < 4; round++) {
  const timed = await load(1500);
  [calls, cpuUs] = [calls + timed.calls, cpuUs + timed.cpuUs];
}
console.log(`${calls} calls, server CPU ${(cpuUs / calls).toFixed(1)} µs/call (profiler on)`);
child.disconnect();
