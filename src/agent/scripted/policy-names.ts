/**
 * The scripted policies' names and what each does, in one light module (no tool catalogue), so that
 * `eval --help` can list them without loading the policies.
 */
export const SCRIPTED_POLICY_DESCRIPTIONS = {
  reference: "the scenario's reference solution (the ceiling)",
  noop: "answers without calling any tool",
  "read-only": "validates, then stops before mutating (the paper's early stop)",
  hallucinate: "calls a tool that does not exist instead of the first mutation",
  "drop-field": "omits one required nested field of the first mutation",
  duplicate: "performs every mutation twice",
  "skip-validate": "mutates first, without reading anything before",
  "over-budget": "repeats reads until the call budget is exceeded",
  "borrowed-args":
    "seeded random calls whose arguments are copied from the reference solution (often solves a task: not a floor)",
  random: "seeded random offered tools with random arguments valid against each tool's schema (the floor)",
} as const;

export type ScriptedPolicyName = keyof typeof SCRIPTED_POLICY_DESCRIPTIONS;

/** The policies as `policy:<name>  description` lines, for help texts. */
export function scriptedPolicyHelp(indent = "  "): string {
  const entries = Object.entries(SCRIPTED_POLICY_DESCRIPTIONS);
  const width = Math.max(...entries.map(([name]) => name.length)) + "policy:".length;
  return entries.map(([name, d]) => `${indent}${`policy:${name}`.padEnd(width)}  ${d}`).join("\n");
}
