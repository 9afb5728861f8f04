import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { withChildSignal } from "./child-signal.ts";

describe("withChildSignal", () => {
  it("leaves no listener on the caller's signal after many requests", async () => {
    const outer = new AbortController();
    for (let i = 0; i < 2000; i++) {
      await withChildSignal(outer.signal, async (signal) => {
        signal.addEventListener("abort", () => {});
      });
    }
    expect(getEventListeners(outer.signal, "abort")).toHaveLength(0);
  });

  it("aborts the request when the caller aborts, with the caller's reason", async () => {
    const outer = new AbortController();
    const seen = withChildSignal(
      outer.signal,
      (signal) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason))),
    );
    outer.abort(new Error("stop"));
    await expect(seen).rejects.toThrow("stop");
  });
});
