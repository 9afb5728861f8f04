import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createProgress } from "./progress.ts";

function capture() {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (c: Buffer) => {
    text += c.toString();
  });
  return { stream, text: () => text };
}

describe("eval progress", () => {
  it("prints plain lines with ETA and running mean when not a TTY: one per tenth of the run", () => {
    const out = capture();
    let t = 0;
    const progress = createProgress({ stream: out.stream, tty: false, now: () => t });
    progress.start(20, 0, 0);
    for (let i = 0; i < 20; i++) {
      t += 1000;
      progress.episode(i % 2 === 0 ? 1 : 0);
    }
    progress.stop();
    const lines = out.text().trim().split("\n");
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe("eval 0/20 episodes (0%) | ETA - | mean reward -");
    expect(lines[5]).toBe("eval 10/20 episodes (50%) | ETA 10s | mean reward 0.500");
    expect(lines[10]).toBe("eval 20/20 episodes (100%) | ETA 0s | mean reward 0.500");
  });

  it("counts episodes already in the log when resuming", () => {
    const out = capture();
    const progress = createProgress({ stream: out.stream, tty: false, now: () => 0 });
    progress.start(4, 2, 2);
    progress.episode(0);
    expect(out.text().split("\n")[0]).toBe("eval 2/4 episodes (50%) | ETA - | mean reward 1.000");
    expect(out.text()).toContain("eval 3/4 episodes (75%)");
    expect(out.text()).toContain("mean reward 0.667");
  });

  it("draws a cli-progress bar on a TTY", () => {
    const out = capture();
    const stream = Object.assign(out.stream, {
      isTTY: true,
      columns: 120,
      cursorTo() {},
      clearLine() {},
      moveCursor() {},
    });
    const progress = createProgress({ stream: stream as unknown as NodeJS.WriteStream, now: () => 0 });
    progress.start(2, 0, 0);
    progress.episode(1);
    progress.episode(0.5);
    progress.stop();
    expect(out.text()).toMatch(/eval .* 2\/2 episodes \| 100% \| ETA .* \| mean reward 0\.750/);
  });
});
