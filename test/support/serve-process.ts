/**
 * Test helper: `atlas-gym serve` as users run it, the real binary in a child process; resolves with the
 * URL it printed once its start-up output satisfies `ready` (e.g. the journal line is out).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/atlas-gym", import.meta.url));

export function spawnServe(
  args: string[],
  ready: (output: string) => boolean,
): Promise<{ url: string; output: string; child: ChildProcess }> {
  const child = spawn(BIN, ["serve", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const url = output.match(/at (http:\/\/127\.0\.0\.1:\d+)/)?.[1];
      if (url && ready(output)) resolve({ url, output, child });
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}
