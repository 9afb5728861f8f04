/**
 * The rules every Expectation obeys, checked whenever a scenario declares one (so a bad scenario fails
 * at its first task, not in training): points sum to exactly 1; every create and update names at least
 * one field, and every requested field (and every delete) is an R1 check with positive points; refs are
 * unique; a refusal lists the names its answer must give (`refuseNames`); the expectation survives a JSON round trip unchanged (it is written to episodes.jsonl).
 */
import { AtlasGymError } from "../errors.ts";
import type { Expectation } from "./expectation.ts";

/** Thrown when a scenario declares an expectation that breaks the rules. */
export class ExpectationError extends AtlasGymError {
  override name = "ExpectationError";
}

/** The R1 keys of an expectation: `<ref>.<field>` per requested field, `<ref>.deleted` per delete. */
export function fieldKeys(x: Expectation): string[] {
  return x.entities.flatMap((e) =>
    e.kind === "delete" ? [`${e.ref}.deleted`] : Object.keys(e.fields).map((f) => `${e.ref}.${f}`),
  );
}

/** The points one record's field earns (its key's weight, split over the entity's count). */
export function fieldPoints(x: Expectation, key: string): number {
  const keys = fieldKeys(x);
  const weight = x.weights?.[key] ?? x.points.fields / Math.max(1, keys.length);
  const entity = x.entities.find((e) => key.startsWith(`${e.ref}.`));
  const count = entity?.kind === "create" ? (entity.count ?? 1) : 1;
  return weight / count;
}

const EPS = 1e-9;

export function checkExpectation(x: Expectation, where: string): Expectation {
  const fail = (why: string): never => {
    throw new ExpectationError(`${where}: ${why}`);
  };
  const { fields, validate, verify, decline = 0 } = x.points;
  for (const [k, v] of Object.entries(x.points))
    if (!(Number.isFinite(v) && v >= 0)) fail(`points.${k} must be a non-negative number, got ${v}`);
  if (Math.abs(fields + validate + verify + decline - 1) > EPS)
    fail(
      `points must sum to exactly 1, got ${fields} + ${validate} + ${verify} + ${decline} = ${fields + validate + verify + decline}`,
    );
  if (!Number.isInteger(x.budget) || x.budget < 1) fail(`budget must be a positive integer, got ${x.budget}`);
  const refs = x.entities.map((e) => e.ref);
  if (new Set(refs).size !== refs.length) fail(`entity refs must be unique: ${refs.join(", ")}`);
  for (const e of x.entities) {
    if (e.kind !== "delete" && Object.keys(e.fields).length === 0)
      fail(`${e.ref}: a ${e.kind} must name at least one field (every field is an R1 check)`);
    if (e.kind === "create" && e.count !== undefined && !(Number.isInteger(e.count) && e.count >= 1))
      fail(`${e.ref}: count must be a positive integer`);
  }
  if (x.refuse !== undefined) {
    if (x.entities.length > 0) fail("a refusal expects no entity changes");
    const names = x.refuseNames;
    if (
      !Array.isArray(names) ||
      names.length === 0 ||
      names.some((n) => typeof n !== "string" || n.trim() === "")
    )
      fail("a refusal must list refuseNames: the missing things its final answer must name");
  } else {
    if (x.refuseNames !== undefined) fail("refuseNames belongs to a refusal (set refuse too)");
    const keys = fieldKeys(x);
    if (keys.length === 0 && fields > 0) fail("points.fields > 0 but no field to earn them");
    if (x.weights) {
      const unknown = Object.keys(x.weights).filter((k) => !keys.includes(k));
      if (unknown.length > 0) fail(`weights for unknown fields: ${unknown.join(", ")}`);
      const missing = keys.filter((k) => x.weights![k] === undefined);
      if (missing.length > 0) fail(`weights must cover every field, missing: ${missing.join(", ")}`);
      const sum = keys.reduce((s, k) => s + x.weights![k]!, 0);
      if (Math.abs(sum - fields) > EPS) fail(`weights sum to ${sum}, not points.fields = ${fields}`);
    }
    for (const k of keys) if (!(fieldPoints(x, k) > 0)) fail(`field ${k} earns no points`);
  }
  const copy = JSON.parse(JSON.stringify(x)) as unknown;
  if (JSON.stringify(copy) !== JSON.stringify(x) || !sameData(copy, x))
    fail("the expectation must be plain JSON data (it did not survive a JSON round trip)");
  return x;
}

function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return (
    ka.length === kb.length &&
    ka.every((k) => sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}
