/**
 * Determinism: the same seed gives a byte-identical fixture and identical responses to the same request
 * sequence, in fresh processes; a different seed gives a different site.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createSite } from "../src/sandbox/fixtures/default-site.ts";
import { probe } from "./support/determinism-probe.ts";

const PROBE = fileURLToPath(new URL("./support/determinism-probe.ts", import.meta.url));

function probeInFreshProcess(seed: number) {
  return JSON.parse(
    execFileSync(process.execPath, ["--import", "tsx", PROBE, String(seed)], { encoding: "utf8" }),
  );
}

describe("determinism", () => {
  it("the same seed gives identical fixtures, responses, end states, tasks and scores in two fresh processes and in-process", async () => {
    const first = probeInFreshProcess(7);
    const second = probeInFreshProcess(7);
    expect(second).toEqual(first);
    expect(await probe(7)).toEqual(first);
  });

  it("different seeds give different fixtures", () => {
    expect(createSite({ seed: 1 }).hash()).not.toBe(createSite({ seed: 2 }).hash());
  });

  it("serialization is byte-identical for two builds of one seed", () => {
    expect(createSite({ seed: 3 }).serialize()).toBe(createSite({ seed: 3 }).serialize());
  });
});
