/**
 * Test support: the headless Chromium that `npm ci` brings (the @sparticuz/chromium package ships a
 * brotli-packed chrome-headless-shell for x86_64 Linux, with the NSS/expat libraries and fonts it needs),
 * unpacked once into a versioned folder under the cache directory (see `cacheDir`), not the temp dir, so
 * the browser tests need nothing installed by hand and leave nothing behind per run. CHROMIUM_PATH, when
 * set, names another Chromium binary to use instead.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliDecompressSync } from "node:zlib";

export interface ChromiumInstall {
  executablePath: string;
  /** Environment for the browser process (shared libraries and fonts of the package). */
  env: Record<string, string>;
}

/**
 * Where atlas-gym keeps what it unpacks once per machine: `$ATLAS_GYM_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/atlas-gym`, else `~/.cache/atlas-gym` (the XDG default).
 */
export function cacheDir(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  if (env.ATLAS_GYM_CACHE_DIR) return env.ATLAS_GYM_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(home, ".cache"), "atlas-gym");
}

/** The Chromium to drive, or a message saying why there is none. */
export function packagedChromium(): ChromiumInstall | { missing: string } {
  const override = process.env.CHROMIUM_PATH;
  if (override)
    return existsSync(override)
      ? { executablePath: override, env: {} }
      : { missing: `CHROMIUM_PATH names ${override}, which does not exist.` };
  if (process.platform !== "linux" || process.arch !== "x64")
    return {
      missing: `@sparticuz/chromium ships Chromium for linux-x64 only (this is ${process.platform}-${process.arch}): set CHROMIUM_PATH to a Chromium binary.`,
    };
  const bin = fileURLToPath(new URL("../../bin/", import.meta.resolve("@sparticuz/chromium")));
  const { version } = JSON.parse(readFileSync(join(bin, "..", "package.json"), "utf8")) as {
    version: string;
  };
  const dir = join(cacheDir(), `chromium-${version}`);
  if (!existsSync(join(dir, "chromium"))) {
    mkdirSync(cacheDir(), { recursive: true });
    unpack(bin, dir);
  }
  return {
    executablePath: join(dir, "chromium"),
    env: { LD_LIBRARY_PATH: join(dir, "lib"), FONTCONFIG_PATH: dir },
  };
}

/** Unpacks the binary, its libraries and fonts into a fresh folder, then moves it into place in one step. */
function unpack(bin: string, dir: string): void {
  const staging = mkdtempSync(`${dir}.tmp-`);
  try {
    writeFileSync(join(staging, "chromium"), brotliDecompressSync(readFileSync(join(bin, "chromium.br"))), {
      mode: 0o755,
    });
    for (const archive of ["al2023.tar.br", "fonts.tar.br"]) {
      const tar = spawnSync("tar", ["-x", "-C", staging], {
        input: brotliDecompressSync(readFileSync(join(bin, archive))),
      });
      if (tar.status !== 0) throw new Error(`Unpacking ${archive} failed: ${tar.stderr.toString()}`);
    }
    // The package's fonts.conf lists Lambda's folders; point fontconfig at the fonts unpacked here.
    mkdirSync(join(staging, "fonts-cache"), { recursive: true });
    writeFileSync(
      join(staging, "fonts.conf"),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${dir}/fonts</dir>\n  <cachedir>${dir}/fonts-cache</cachedir>\n</fontconfig>\n`,
    );
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another process may have unpacked the same version meanwhile.
    if (!existsSync(join(dir, "chromium"))) throw error;
  }
}
