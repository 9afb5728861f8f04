/**
 * The one source of atlas-gym's version (package.json's), and the git commit of the checkout it runs
 * from, for the CLI's --version, the env server's /health and every run's provenance.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export const VERSION: string = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
).version;

/** HEAD's commit when atlas-gym runs from a git checkout (with "-dirty" when it has changes), else null. */
export function gitCommit(): string | null {
  if (!existsSync(`${ROOT}.git`)) return null;
  try {
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", ROOT, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const head = git("rev-parse", "HEAD").trim();
    const dirty = git("status", "--porcelain", "--untracked-files=no").trim() !== "";
    return dirty ? `${head}-dirty` : head;
  } catch {
    return null;
  }
}
