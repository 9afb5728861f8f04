/** Where the packaged Chromium is unpacked: the cache directory, never the temp dir. */
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cacheDir, packagedChromium } from "./support/packaged-chromium.ts";

describe("the packaged Chromium's folder", () => {
  it("is $ATLAS_GYM_CACHE_DIR, else $XDG_CACHE_HOME/atlas-gym, else ~/.cache/atlas-gym", () => {
    expect(cacheDir({ ATLAS_GYM_CACHE_DIR: "/c/mine", XDG_CACHE_HOME: "/x" }, "/home/u")).toBe("/c/mine");
    expect(cacheDir({ XDG_CACHE_HOME: "/x" }, "/home/u")).toBe(join("/x", "atlas-gym"));
    expect(cacheDir({ XDG_CACHE_HOME: "" }, "/home/u")).toBe(join("/home/u", ".cache", "atlas-gym"));
    expect(cacheDir({}, "/home/u")).toBe(join("/home/u", ".cache", "atlas-gym"));
  });

  it("is unpacked under the cache directory, not the temp dir", () => {
    const chromium = packagedChromium();
    if ("missing" in chromium) throw new Error(chromium.missing);
    const expected = process.env.CHROMIUM_PATH ?? join(cacheDir(), "chromium-");
    expect(chromium.executablePath.startsWith(expected)).toBe(true);
    expect(chromium.executablePath.startsWith(tmpdir())).toBe(false);
    expect(existsSync(chromium.executablePath)).toBe(true);
  });
});
