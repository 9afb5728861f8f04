/**
 * Test support: `node:fs` whose writes can be made short or failing (a full disk), one call at a time;
 * all other writes (and all of them when none is queued) go through untouched. A test file mocks
 * `node:fs` with it and queues faults:
 *
 *   vi.mock("node:fs", async (importOriginal) =>
 *     (await import("../../test/support/faulty-fs.ts")).faultyFs(await importOriginal()));
 *   import { faults } from "../../test/support/faulty-fs.ts";
 *   faults.queue.push("enospc");
 *
 * This module must not import `node:fs` itself (it is what is being mocked).
 */
type Fs = typeof import("node:fs");

/**
 * The faults the next writes meet, first first ("ok": that write goes through), and those the next
 * removals (`unlinkSync`) meet ("eacces": a folder the server may no longer change).
 */
export const faults = { queue: [] as ("ok" | "short" | "enospc")[], removals: [] as ("ok" | "eacces")[] };

/** `fs` with a `writeSync` and an `unlinkSync` that meet the queued faults. */
export function faultyFs(fs: Fs): Fs {
  const writeSync = ((fd: number, data: never, ...rest: never[]) => {
    const fault = faults.queue.shift();
    if (fault === "enospc")
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    if (fault === "short") {
      const [offset = 0, length] = rest as unknown as [number?, number?];
      const bytes = Buffer.isBuffer(data) ? data : Buffer.from(String(data));
      const end = Math.min(offset + 7, length === undefined ? bytes.length : offset + length);
      return fs.writeSync(fd, bytes, offset, end - offset);
    }
    return (fs.writeSync as (...args: unknown[]) => number)(fd, data, ...rest);
  }) as Fs["writeSync"];
  const unlinkSync = ((path: never) => {
    if (faults.removals.shift() === "eacces")
      throw Object.assign(new Error(`EACCES: permission denied, unlink '${String(path)}'`), {
        code: "EACCES",
      });
    return fs.unlinkSync(path);
  }) as Fs["unlinkSync"];
  return { ...fs, default: { ...fs, writeSync, unlinkSync }, writeSync, unlinkSync } as Fs;
}
