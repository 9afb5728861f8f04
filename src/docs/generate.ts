/**
 * Generated reference: the tables in README.md and docs/ that come from the registries (operations,
 * agent tools, scenarios, which alias tool set covers which scenario) and the Python suites' test
 * counts, so they cannot drift. Each lives between `<!-- generated:NAME -->` and
 * `<!-- /generated:NAME -->` markers; `atlas-gym docs --write` refreshes them and a test checks they are
 * current.
 */

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PROVIDER_ERROR_TYPES } from "../agent/provider-error-types.ts";
import { operationNeeds } from "../env/offered-tools.ts";
import { FAILURE_CODES, PAPER_FAILURES, PROVIDER_ERROR_MEANING } from "../eval/metrics.ts";
import { PENALTIES, VIOLATIONS } from "../reward/penalties.ts";
import { STEP_FAILURE_KINDS } from "../reward/step-failure-kinds.ts";
import { OPERATIONS } from "../sandbox/operations.ts";
import { PRESENTATIONS } from "../sandbox/presentations.ts";
import { FAMILIES } from "../scenarios/families.ts";
import { isHeldOut, SCENARIOS } from "../scenarios/index.ts";
import { TOOL_SET_NAMES, uncoveredOperations } from "../tools/aliases/tool-sets.ts";
import { DEFAULT_TOOL_SPECS } from "../tools/catalogue.ts";
import { renderEnvCapacity } from "./env-capacity.ts";

/** A generated section: its marker name, the files that hold it, and its content. */
export interface GeneratedSection {
  name: string;
  files: readonly string[];
  render(): string;
}

const row = (cells: readonly string[]) => `| ${cells.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`;

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [row(header), row(header.map(() => "---")), ...rows.map(row)].join("\n");
}

/** Every operation, by API, with the agent tool that calls it and, for writes, the class of its input fields. */
export function renderOperations(): string {
  const tools = new Map<string, string[]>();
  for (const t of DEFAULT_TOOL_SPECS) tools.set(t.operationId, [...(tools.get(t.operationId) ?? []), t.name]);
  const rows = OPERATIONS.map((op) => [
    op.api,
    `\`${op.operationId}\``,
    `\`${op.method} ${op.path}\``,
    op.effect,
    op.effect === "read"
      ? "—"
      : op.fieldClasses
        ? `metadata: ${op.fieldClasses.metadata.map((f) => `\`${f}\``).join(", ")}; the rest content`
        : "content",
    (tools.get(op.operationId) ?? []).map((n) => `\`${n}\``).join(", ") || "—",
    op.summary,
  ]);
  return `${OPERATIONS.length} operations.\n\n${table(["API", "operationId", "method and path", "effect", "input fields", "agent tool", "what it does"], rows)}`;
}

/** Every presentation (Jira v2, Confluence v1) with the operation it performs. */
export function renderPresentations(): string {
  const rows = PRESENTATIONS.map((p) => [
    p.api,
    `\`${p.operationId}\``,
    `\`${p.method} ${p.path}\``,
    `\`${p.operation.operationId}\``,
  ]);
  return `${PRESENTATIONS.length} presentations: the same operations on other API versions (same handlers, state and trace).\n\n${table(["API", "operationId", "method and path", "performs"], rows)}`;
}

/** How many families the registry holds: single-family ones, workflows composed of them, held out. */
export function renderFamilyCount(): string {
  const workflows = SCENARIOS.length - FAMILIES.length;
  const held = SCENARIOS.filter((s) => isHeldOut(s.id)).length;
  return `${SCENARIOS.length} task families: ${FAMILIES.length} single-family ones and ${workflows} workflow families composed of their steps; ${held} of the ${SCENARIOS.length} are held out (never trained on).`;
}

/** Every registered scenario with its levels, tools and what it tests, after the family count. */
export function renderScenarios(): string {
  const rows = SCENARIOS.map((s) => [
    `\`${s.id}\``,
    (s.levels ?? [1, 2]).join(", "),
    isHeldOut(s.id) ? `${s.description} *Held out: never trained on.*` : s.description,
    s.tools.map((t) => `\`${t}\``).join(", "),
  ]);
  return `${renderFamilyCount()}\n\n${table(["scenario", "levels", "the task", "tools offered"], rows)}`;
}

/** Which alias tool set covers which scenario, derived from the operations each scenario needs. */
export function renderCoverage(): string {
  const sets = TOOL_SET_NAMES.filter((set) => set !== "default");
  const rows = SCENARIOS.map((s) => [
    `\`${s.id}\``,
    ...sets.map((set) => {
      const missing = uncoveredOperations(set, s, operationNeeds(s));
      const code = (ids: string) =>
        ids
          .split(", ")
          .map((id) => `\`${id}\``)
          .join(", ");
      const lacks = missing.map((m) => (m.startsWith("one of ") ? `one of ${code(m.slice(7))}` : code(m)));
      return missing.length === 0 ? "yes" : `no: no tool for ${lacks.join("; ")}`;
    }),
  ]);
  return table(["scenario", ...sets.map((set) => `\`${set}\``)], rows);
}

const penalty = (code: keyof typeof VIOLATIONS) =>
  `${PENALTIES[code]}${VIOLATIONS[code].each ? " each" : ""}`;

/** The violation codes with their R3 penalty and meaning (penalties.ts). */
export function renderViolations(): string {
  const rows = Object.entries(VIOLATIONS).map(([code, v]) => [
    `\`${code}\``,
    penalty(code as keyof typeof VIOLATIONS),
    v.when,
  ]);
  return table(["code", "penalty", "when"], rows);
}

/**
 * Every failure code `eval` prints (the `failures` lines and tables, results.json `failures`) and every
 * step failure kind of its first-failed-step lines, with its meaning.
 */
export function renderFailureCodes(): string {
  const paper = new Set<string>(PAPER_FAILURES);
  const rows = FAILURE_CODES.map((code) =>
    code === "provider_error"
      ? [`\`${code}\``, "—", PROVIDER_ERROR_MEANING]
      : [
          `\`${code}\``,
          penalty(code),
          `${VIOLATIONS[code].when}${paper.has(code) ? " *(one of the paper's seven)*" : ""}`,
        ],
  );
  const steps = Object.entries(STEP_FAILURE_KINDS).map(([kind, when]) => [
    `\`${kind}\``,
    "— (step kind)",
    `${when}; shown only in the per-horizon first-failed-step lines`,
  ]);
  return `${FAILURE_CODES.length} failure codes, each counted once per episode that shows it, then the step failure kinds that only workflow steps report (a step's failure is otherwise one of the codes above).\n\n${table(["code", "penalty (R3)", "meaning"], [...rows, ...steps])}`;
}

/** The kinds of provider error an episode can end on (`error.type`), with their meaning. */
export function renderProviderErrors(): string {
  const rows = Object.entries(PROVIDER_ERROR_TYPES).map(([type, when]) => [`\`${type}\``, when]);
  return table(["provider error", "meaning"], rows);
}

/** The families training may use and those it never sees (docs/training.md). */
export function renderTrainingFamilies(): string {
  const code = (ids: readonly string[]) => ids.map((id) => `\`${id}\``).join(", ");
  const inFamily = SCENARIOS.filter((s) => !isHeldOut(s.id)).map((s) => s.id);
  const heldOut = SCENARIOS.filter((s) => isHeldOut(s.id)).map((s) => s.id);
  return [
    `${SCENARIOS.length} task families: ${inFamily.length} in-family (what the GPU recipes train on: ${code(inFamily)})`,
    `and ${heldOut.length} held out (never trained on; \`atlas-gym train\` refuses them: ${code(heldOut)}).`,
  ].join("\n");
}

/** The test functions of a Python suite folder (`def test_…`, parametrized ones counted once). */
function pythonTestFunctions(folder: string): number {
  const dir = fileURLToPath(new URL(`../../python/${folder}/`, import.meta.url));
  return readdirSync(dir)
    .filter((f) => /^test_.*\.py$/.test(f))
    .reduce(
      (n, f) => n + (readFileSync(join(dir, f), "utf8").match(/^\s*(?:async )?def test_/gm)?.length ?? 0),
      0,
    );
}

/** How many test functions each Python suite holds (docs/training.md). */
export function renderPythonTests(): string {
  const trl = pythonTestFunctions("tests");
  const verl = pythonTestFunctions("tests_verl");
  return `Test functions (a parametrized one counted once; \`pytest --collect-only -q\` lists every case): \`python/tests\` ${trl}, \`python/tests_verl\` ${verl}.`;
}

export const GENERATED_SECTIONS: readonly GeneratedSection[] = [
  { name: "operations", files: ["docs/site-and-apis.md"], render: renderOperations },
  { name: "presentations", files: ["docs/site-and-apis.md"], render: renderPresentations },
  { name: "scenarios", files: ["README.md", "docs/scenarios-and-rewards.md"], render: renderScenarios },
  { name: "coverage", files: ["docs/mcp.md"], render: renderCoverage },
  { name: "violations", files: ["src/reward/README.md"], render: renderViolations },
  { name: "failure-codes", files: ["docs/evaluation.md"], render: renderFailureCodes },
  { name: "provider-errors", files: ["docs/evaluation.md"], render: renderProviderErrors },
  { name: "training-families", files: ["docs/training.md"], render: renderTrainingFamilies },
  { name: "python-tests", files: ["docs/training.md"], render: renderPythonTests },
  { name: "env-capacity", files: ["docs/training.md"], render: () => renderEnvCapacity() },
];

/** `text` with every section's marked region replaced by its current content. */
export function refreshSections(text: string, sections: readonly GeneratedSection[]): string {
  let out = text;
  for (const section of sections) {
    const open = `<!-- generated:${section.name} -->`;
    const close = `<!-- /generated:${section.name} -->`;
    const start = out.indexOf(open);
    const end = out.indexOf(close);
    if (start < 0 || end < start) continue;
    out = `${out.slice(0, start + open.length)}\n${section.render()}\n${out.slice(end)}`;
  }
  return out;
}
