/** The generated tables in README.md and docs/ match the registries (run `./bin/atlas-gym docs` to refresh). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GENERATED_SECTIONS, refreshSections, renderOperations } from "../src/docs/generate.ts";
import { OPERATIONS } from "../src/sandbox/operations.ts";

describe("generated docs", () => {
  for (const section of GENERATED_SECTIONS) {
    for (const file of section.files) {
      it(`${file} holds the current '${section.name}' table`, () => {
        const text = readFileSync(file, "utf8");
        expect(text).toContain(`<!-- generated:${section.name} -->`);
        expect(refreshSections(text, [section])).toBe(text);
      });
    }
  }

  it("lists every operation of the registry", () => {
    const rendered = renderOperations();
    for (const op of OPERATIONS) expect(rendered).toContain(`\`${op.operationId}\``);
  });

  it("refreshes only the marked region", () => {
    const text = "intro\n<!-- generated:operations -->\nold\n<!-- /generated:operations -->\noutro\n";
    const out = refreshSections(
      text,
      GENERATED_SECTIONS.filter((s) => s.name === "operations"),
    );
    expect(out.startsWith("intro\n<!-- generated:operations -->\n")).toBe(true);
    expect(out).not.toContain("\nold\n");
    expect(out.endsWith("<!-- /generated:operations -->\noutro\n")).toBe(true);
  });
});
