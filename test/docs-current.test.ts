/** The generated tables in README.md and docs/ match the registries (run `./bin/atlas-gym docs` to refresh). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PROVIDER_ERROR_TYPES } from "../src/agent/provider-error-types.ts";
import {
  GENERATED_SECTIONS,
  refreshSections,
  renderFailureCodes,
  renderOperations,
  renderProviderErrors,
} from "../src/docs/generate.ts";
import { FAILURE_CODES } from "../src/eval/metrics.ts";
import { PENALTIES } from "../src/reward/penalties.ts";
import { OPERATIONS } from "../src/sandbox/operations.ts";
import { HELD_OUT } from "../src/scenarios/index.ts";

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

  it("lists every failure code eval counts (each violation code and provider_error) and every provider error kind", () => {
    expect([...FAILURE_CODES].sort()).toEqual([...Object.keys(PENALTIES), "provider_error"].sort());
    const codes = renderFailureCodes();
    for (const code of FAILURE_CODES) expect(codes).toMatch(new RegExp(`\\| \`${code}\` \\| [^|]+ \\| \\w`));
    expect(codes).toContain("`unhonoured_binding`");
    const kinds = renderProviderErrors();
    for (const type of Object.keys(PROVIDER_ERROR_TYPES)) expect(kinds).toContain(`| \`${type}\` |`);
  });

  it("docs/held-out-families.md gives every held-out family its row", () => {
    const rows = [...readFileSync("docs/held-out-families.md", "utf8").matchAll(/^\| `([a-z0-9-]+)` \|/gm)];
    expect(rows.map((m) => m[1]).sort()).toEqual([...HELD_OUT].sort());
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
