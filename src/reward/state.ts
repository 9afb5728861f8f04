/**
 * End-state verification: a task's expected changes, checked against the site diff (AppWorld's
 * `changed_records`). The verdict passes when every required expectation claims a change and no change
 * is left unclaimed ("the expected changes happened and nothing else changed").
 */
import type { RecordChange } from "../sandbox/diff.ts";
import type { SiteRecords, TableName } from "../sandbox/site.ts";
import type { Matcher } from "./matchers.ts";

export interface StateExpectation {
  /** The requirement in words, shown verbatim in explanations. */
  label: string;
  /** Whether the task fails without it (false for changes that are merely allowed). */
  required: boolean;
  /** How many changes it may claim (default 1). */
  max?: number;
  claims(change: RecordChange): boolean;
}

type FieldExpectations<K extends TableName> = Partial<Record<keyof SiteRecords[K] & string, Matcher>>;

/** A record of `table` with this id was updated: the listed fields match, and only `alsoAllowed` others changed. */
export function expectUpdated<K extends TableName>(
  label: string,
  table: K,
  id: string,
  fields: FieldExpectations<K>,
  alsoAllowed: string[] = [],
): StateExpectation {
  const allowed = new Set([...Object.keys(fields), ...alsoAllowed]);
  return {
    label,
    required: true,
    claims: (change) =>
      change.kind === "updated" &&
      change.table === table &&
      change.id === id &&
      change.fields.every((f) => allowed.has(f)) &&
      matchAll(change.after as unknown as Record<string, unknown>, fields),
  };
}

/** A record was created in `table` whose fields match. */
export function expectCreated<K extends TableName>(
  label: string,
  table: K,
  fields: FieldExpectations<K>,
): StateExpectation {
  return {
    label,
    required: true,
    claims: (change) =>
      change.kind === "created" &&
      change.table === table &&
      matchAll(change.after as unknown as Record<string, unknown>, fields),
  };
}

/** Changes that may happen as a side effect of the expected ones (not required, up to `max`). */
export function allowChange(
  label: string,
  max: number,
  claims: (change: RecordChange) => boolean,
): StateExpectation {
  return { label, required: false, max, claims };
}

export interface StateVerdict {
  passed: boolean;
  /** Required expectations that no change satisfied. */
  missing: string[];
  /** Changes no expectation accounts for. */
  collateral: RecordChange[];
}

export function verifyState(
  expectations: readonly StateExpectation[],
  changes: readonly RecordChange[],
): StateVerdict {
  const used = new Map<StateExpectation, number>();
  const collateral: RecordChange[] = [];
  for (const change of changes) {
    const claimer = expectations.find((e) => (used.get(e) ?? 0) < (e.max ?? 1) && e.claims(change));
    if (claimer) used.set(claimer, (used.get(claimer) ?? 0) + 1);
    else collateral.push(change);
  }
  const missing = expectations.filter((e) => e.required && !used.has(e)).map((e) => e.label);
  return { passed: missing.length === 0 && collateral.length === 0, missing, collateral };
}

/** A one-line description of a change, for explanations. */
export function describeChange(change: RecordChange): string {
  if (change.kind === "updated") return `updated ${change.table} ${change.id} (${change.fields.join(", ")})`;
  return `${change.kind} ${change.table} ${change.id}`;
}

function matchAll(record: Record<string, unknown>, fields: Record<string, Matcher | undefined>): boolean {
  return Object.entries(fields).every(([key, matcher]) => !matcher || matcher.test(record[key]));
}
