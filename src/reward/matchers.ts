/**
 * Matchers for expected values in reward and state checks. Each carries a description, so every check
 * can explain itself in words ("equals 'ENG'", "contains 'rollout plan'").
 */

export interface Matcher {
  describe: string;
  test(value: unknown): boolean;
}

const norm = (v: unknown) => (typeof v === "string" ? v.trim().toLowerCase() : v);

/** Exactly this value (numbers and numeric strings compare equal, since ids travel as both). */
export function equals(expected: string | number | boolean | null): Matcher {
  return {
    describe: `equals ${JSON.stringify(expected)}`,
    test: (v) => v === expected || (v !== null && expected !== null && String(v) === String(expected)),
  };
}

/** One of several acceptable values, e.g. an issue's key or its id; case-insensitive for strings. */
export function oneOf(values: (string | number)[], label?: string): Matcher {
  const accepted = new Set(values.map((v) => norm(String(v))));
  return {
    describe: label ?? `is one of ${values.map((v) => JSON.stringify(v)).join(", ")}`,
    test: (v) => (typeof v === "string" || typeof v === "number") && accepted.has(norm(String(v))),
  };
}

/** A string containing the text, ignoring case and surrounding markup whitespace. */
export function contains(text: string): Matcher {
  const needle = text.toLowerCase();
  return {
    describe: `contains ${JSON.stringify(text)}`,
    test: (v) => typeof v === "string" && v.toLowerCase().includes(needle),
  };
}

/** A string equal to the expected text, ignoring case and surrounding whitespace. */
export function sameText(text: string): Matcher {
  return {
    describe: `is ${JSON.stringify(text)} (any case)`,
    test: (v) => typeof v === "string" && norm(v) === norm(text),
  };
}

/** An array whose string items (case-insensitive) are exactly this set. */
export function sameSet(values: string[]): Matcher {
  const expected = [...new Set(values.map((v) => v.toLowerCase()))].sort();
  return {
    describe: `is the set [${expected.join(", ")}]`,
    test: (v) =>
      Array.isArray(v) &&
      JSON.stringify([...new Set(v.map((x) => String(x).toLowerCase()))].sort()) === JSON.stringify(expected),
  };
}

/** Anything that is not undefined or null. */
export const present: Matcher = { describe: "is present", test: (v) => v !== undefined && v !== null };

/** Reads a dotted path (`body.fields.project.key`, `body.labels.0.name`) out of a value. */
export function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
