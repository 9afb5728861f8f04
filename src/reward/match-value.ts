/**
 * One expected value against one stored field, with the single documented normalisation: strings are
 * trimmed and internal whitespace runs collapse; no case folding, no substring matching (except
 * `includesText`, which is verbatim containment in the visible text). Ids match as numbers or strings.
 */
import type { TableName } from "../sandbox/site.ts";
import { comparableField } from "./entity-fields.ts";
import type { ExpectedBlock, ExpectedValue } from "./expectation.ts";
import { blocksMatch } from "./rich-blocks.ts";
import { tableMatches } from "./rich-table.ts";
import { mentionsOf, normalizeText } from "./visible-text.ts";

/** Two comparable values are the same (strings normalised, numbers equal to their decimal string). */
export function sameValue(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) =>
    typeof v === "string" ? normalizeText(v) : typeof v === "number" ? String(v) : v;
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]))
    );
  if (a === undefined || b === undefined) return a === b || (a ?? null) === (b ?? null);
  return norm(a) === norm(b);
}

/** Whether the stored `raw` value of `table.field` satisfies `expected`. */
export function matchesExpected(
  expected: ExpectedValue,
  table: TableName,
  field: string,
  raw: unknown,
): boolean {
  if ("table" in expected) return tableMatches(raw, expected.table);
  if ("bound" in expected || "fill" in expected) return false; // resolved before judging (bindings.ts)
  if ("blocks" in expected) return blocksMatch(raw, expected.blocks);
  const value = comparableField(table, field, raw);
  if ("equals" in expected) return sameValue(value ?? null, expected.equals);
  if ("oneOf" in expected) return expected.oneOf.some((v) => sameValue(value, v));
  if ("set" in expected) {
    const want = [...new Set(expected.set.map(normalizeText))].sort();
    const got = Array.isArray(value) ? [...new Set(value.map((v) => normalizeText(String(v))))].sort() : null;
    return got !== null && JSON.stringify(got) === JSON.stringify(want);
  }
  const text = typeof value === "string" ? normalizeText(value) : "";
  if ("includesText" in expected) return expected.includesText.every((t) => text.includes(normalizeText(t)));
  const mentions = expected.mentions;
  const sameMentions =
    mentions === undefined ||
    JSON.stringify(mentionsOf(raw)) === JSON.stringify([...new Set(mentions)].sort());
  return text === normalizeText(expected.visibleText) && sameMentions;
}

/** An expected value in words, for explanations. */
export function describeExpected(expected: ExpectedValue): string {
  if ("equals" in expected) return `= ${JSON.stringify(expected.equals)}`;
  if ("bound" in expected) return `the ${expected.bound} of a record an earlier step creates`;
  if ("fill" in expected)
    return `${describeExpected(expected.fill)} (with fields of records earlier steps create)`;
  if ("oneOf" in expected) return `one of ${expected.oneOf.map((v) => JSON.stringify(v)).join(", ")}`;
  if ("set" in expected) return `the set [${expected.set.join(", ")}]`;
  if ("table" in expected) return `a table with ${expected.table.rows.length} rows`;
  if ("blocks" in expected)
    return `${expected.blocks.before === undefined ? "only" : "the kept body, then"} ${expected.blocks.blocks.map(describeBlock).join(", then ")}`;
  if ("includesText" in expected)
    return `visible text containing ${expected.includesText.map((t) => JSON.stringify(t)).join(" and ")}`;
  const mentions = expected.mentions?.length ? ` mentioning ${expected.mentions.join(", ")}` : "";
  return `visible text ${JSON.stringify(expected.visibleText)}${mentions}`;
}

/** A stored value in a few words, for explanations. */
export function describeActual(table: TableName, field: string, raw: unknown): string {
  const value = comparableField(table, field, raw);
  const text = JSON.stringify(value) ?? "absent";
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

const describeBlock = (b: ExpectedBlock): string =>
  "heading" in b
    ? `a heading${b.level ? ` of level ${b.level}` : ""} ${JSON.stringify(b.heading)}`
    : "paragraph" in b
      ? `a paragraph ${JSON.stringify(b.paragraph)}`
      : `a table of ${b.table.rows.length} rows`;
