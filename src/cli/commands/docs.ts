/**
 * `atlas-gym docs`: refreshes the generated tables in README.md and docs/ from the registries
 * (`--check` exits non-zero when a file is stale, for CI and pre-commit use).
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Command } from "commander";

export function registerDocs(program: Command): void {
  program
    .command("docs")
    .description(
      "Refresh the generated tables (operations, scenarios, tool-set coverage, failure codes, ...) in README.md and docs/",
    )
    .option("--check", "only report stale files; exit 1 when any is stale")
    .option("--root <dir>", "repository root", process.cwd())
    .action(async (opts: { check?: boolean; root: string }) => {
      const { GENERATED_SECTIONS, refreshSections } = await import("../../docs/generate.ts");
      const files = [...new Set(GENERATED_SECTIONS.flatMap((s) => s.files))];
      const stale: string[] = [];
      for (const file of files) {
        const path = join(opts.root, file);
        const before = await readFile(path, "utf8");
        const after = refreshSections(
          before,
          GENERATED_SECTIONS.filter((s) => s.files.includes(file)),
        );
        if (after === before) continue;
        stale.push(file);
        if (!opts.check) await writeFile(path, after);
      }
      if (opts.check && stale.length > 0) {
        console.error(`stale generated docs: ${stale.join(", ")} (run ./bin/atlas-gym docs)`);
        process.exitCode = 1;
      } else console.log(stale.length ? `updated ${stale.join(", ")}` : "generated docs are current");
    });
}
