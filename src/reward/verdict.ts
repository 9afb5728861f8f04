/**
 * The state verdict: the site diff judged against a task's Expectation. Every expected create, update
 * and delete must be satisfied exactly; a created record's unrequested fields must hold what the API
 * sets when they are omitted, and an updated record's other fields may change only as the API changes
 * them alongside — both learned from the reference solution's own diff (one source of truth, no
 * hand-listed defaults); metadata fields (identifiers, integration metadata, declared with the
 * operation: `fieldClasses`) are the agent's to choose; every other change (bar bookkeeping) is collateral.
 */
import type { RecordChange } from "../sandbox/diff.ts";
import { metadataFields } from "../sandbox/operations.ts";
import type { TableName } from "../sandbox/site.ts";
import { comparableRecord, rawField } from "./entity-fields.ts";
import type { EntityExpectation, Expectation, ExpectedCreate } from "./expectation.ts";
import { describeActual, describeExpected, matchesExpected, sameValue } from "./match-value.ts";

/** One requested field of one record: whether the end state holds it. */
export interface FieldResult {
  /** `<ref>.<field>`: the key points are declared by. */
  key: string;
  entity: EntityExpectation;
  field: string;
  table: TableName;
  /** The record judged (null when no record could be). */
  recordId: string | null;
  ok: boolean;
  detail: string;
}

export interface Finding {
  message: string;
  change: RecordChange;
}

export interface StateVerdict {
  passed: boolean;
  fields: FieldResult[];
  /** Expected entities with no record to judge at all. */
  missing: EntityExpectation[];
  /** Changes nobody asked for: other records, unrequested fields, extra records. */
  collateral: Finding[];
  /** Extra created records that repeat an expected one. */
  duplicates: Finding[];
}

const keyOf = (c: RecordChange) => `${c.table}:${c.id}`;

export function judgeState(
  expectation: Expectation,
  changes: readonly RecordChange[],
  /** The reference solution's diff on the same initial site (defaults and alongside changes). */
  reference: readonly RecordChange[] = [],
  /** `metadataFree: false` judges metadata fields as content (the audit's "before" the second pass). */
  options: { metadataFree?: boolean } = {},
): StateVerdict {
  const free = options.metadataFree ?? true;
  const claimed = new Set<string>();
  const fields: FieldResult[] = [];
  const missing: EntityExpectation[] = [];
  const collateral: Finding[] = [];
  const duplicates: Finding[] = [];
  const refClaims = reference.length > 0 ? claimCreates(expectation, reference) : new Map();
  const createClaims = claimCreates(expectation, changes);

  for (const entity of expectation.entities) {
    if (entity.kind === "create") {
      const records = createClaims.get(entity) ?? [];
      const refRecords: RecordChange[] = refClaims.get(entity) ?? [];
      if (records.length === 0) missing.push(entity);
      const count = entity.count ?? 1;
      for (let k = 0; k < count; k++) {
        const change = records[k];
        if (change) claimed.add(keyOf(change));
        fields.push(...fieldResults(entity, change ?? null));
        if (change && refRecords.length > 0)
          collateral.push(
            ...unrequested(entity, change, refRecords[Math.min(k, refRecords.length - 1)]!, free),
          );
      }
      for (const extra of changes) {
        if (extra.kind !== "created" || extra.table !== entity.table || claimed.has(keyOf(extra))) continue;
        if (fitOf(entity, extra) === Object.keys(entity.fields).length) {
          claimed.add(keyOf(extra));
          duplicates.push({
            change: extra,
            message: `another record like ${entity.ref} (${extra.table} ${extra.id})`,
          });
        }
      }
    } else if (entity.kind === "update") {
      const change = changes.find(
        (c): c is Extract<RecordChange, { kind: "updated" }> =>
          c.kind === "updated" && c.table === entity.table && c.id === entity.id,
      );
      if (!change) missing.push(entity);
      else claimed.add(keyOf(change));
      fields.push(...fieldResults(entity, change ?? null));
      if (change) collateral.push(...alongside(entity, change, reference, free));
    } else {
      const change = changes.find(
        (c) => c.kind === "deleted" && c.table === entity.table && c.id === entity.id,
      );
      if (!change) missing.push(entity);
      else claimed.add(keyOf(change));
      fields.push({
        key: `${entity.ref}.deleted`,
        entity,
        field: "deleted",
        table: entity.table,
        recordId: entity.id,
        ok: change !== undefined,
        detail: change ? "deleted" : "still there",
      });
    }
  }
  for (const change of changes) {
    if (claimed.has(keyOf(change)) || bookkeepingOnly(change)) continue;
    collateral.push({ change, message: describeChange(change) });
  }
  const passed =
    missing.length === 0 && fields.every((f) => f.ok) && collateral.length === 0 && duplicates.length === 0;
  return { passed, fields, missing, collateral, duplicates };
}

/** Created records matched to create expectations, best fit first, each record claimed once. */
export function claimCreates(
  expectation: Expectation,
  changes: readonly RecordChange[],
): Map<EntityExpectation, RecordChange[]> {
  const taken = new Set<string>();
  const claims = new Map<EntityExpectation, RecordChange[]>();
  const creates = expectation.entities.filter((e): e is ExpectedCreate => e.kind === "create");
  // Greedy by fit over all (expectation, record) pairs, so a record goes where it fits best.
  const pairs = creates.flatMap((entity) =>
    changes
      .filter((c) => c.kind === "created" && c.table === entity.table)
      .map((change, order) => ({ entity, change, fit: fitOf(entity, change), order })),
  );
  pairs.sort((a, b) => b.fit - a.fit || a.order - b.order);
  for (const { entity, change } of pairs) {
    const list = claims.get(entity) ?? [];
    if (taken.has(keyOf(change)) || list.length >= (entity.count ?? 1)) continue;
    taken.add(keyOf(change));
    list.push(change);
    claims.set(entity, list);
  }
  return claims;
}

const after = (c: RecordChange): unknown => (c.kind === "deleted" ? undefined : c.after);

function fitOf(entity: ExpectedCreate, change: RecordChange): number {
  return Object.entries(entity.fields).filter(([field, expected]) =>
    matchesExpected(expected, entity.table, field, rawField(after(change), field)),
  ).length;
}

function fieldResults(entity: EntityExpectation, change: RecordChange | null): FieldResult[] {
  if (entity.kind === "delete") return [];
  return Object.entries(entity.fields).map(([field, expected]) => {
    const raw = change ? rawField(after(change), field) : undefined;
    const ok = change !== null && matchesExpected(expected, entity.table, field, raw);
    return {
      key: `${entity.ref}.${field}`,
      entity,
      field,
      table: entity.table,
      recordId: change?.id ?? null,
      ok,
      detail: change
        ? `${field} ${describeActual(entity.table, field, raw)} (expected ${describeExpected(expected)})`
        : `no record for ${entity.ref}`,
    };
  });
}

/** A created record's fields nobody asked for must equal the reference's (the API's defaults). */
function unrequested(
  entity: ExpectedCreate,
  change: RecordChange,
  ref: RecordChange,
  metadataFree: boolean,
): Finding[] {
  const got = comparableRecord(entity.table, after(change) as never);
  const want = comparableRecord(entity.table, after(ref) as never);
  const findings: Finding[] = [];
  for (const key of new Set([...got.keys(), ...want.keys()])) {
    if (isRequested(entity.fields, key) || (metadataFree && isMetadata(entity.table, key))) continue;
    if (sameValue(got.get(key), want.get(key))) continue;
    findings.push({
      change,
      message: `${entity.ref}: ${key} is ${JSON.stringify(got.get(key)) ?? "absent"}, not what the API sets when it is omitted (${JSON.stringify(want.get(key)) ?? "absent"})`,
    });
  }
  return findings;
}

/** An updated record's unrequested fields may change only as the reference's update changed them. */
function alongside(
  entity: Extract<EntityExpectation, { kind: "update" }>,
  change: Extract<RecordChange, { kind: "updated" }>,
  reference: readonly RecordChange[],
  metadataFree: boolean,
): Finding[] {
  const before = comparableRecord(entity.table, change.before as never);
  const now = comparableRecord(entity.table, change.after as never);
  const ref = reference.find((c) => c.kind === "updated" && c.table === entity.table && c.id === entity.id);
  const refAfter = ref ? comparableRecord(entity.table, after(ref) as never) : before;
  const findings: Finding[] = [];
  for (const key of new Set([...before.keys(), ...now.keys()])) {
    if (isRequested(entity.fields, key) || (metadataFree && isMetadata(entity.table, key))) continue;
    if (sameValue(before.get(key), now.get(key))) continue;
    if (sameValue(now.get(key), refAfter.get(key))) continue;
    findings.push({
      change,
      message: `${entity.ref}: ${key} changed to ${JSON.stringify(now.get(key)) ?? "absent"}, which the task did not ask for`,
    });
  }
  return findings;
}

/** A requested field, or a path inside one, or one that holds requested paths (`object` for `object.url`). */
const isRequested = (fields: Record<string, unknown>, key: string) =>
  Object.keys(fields).some((f) => f === key || key.startsWith(`${f}.`));

/** A metadata field (or a path inside one) that the operations writing `table` declare free to choose. */
const isMetadata = (table: TableName, key: string) => metadataFields(table).has(key.split(".")[0]!);

/** An update that only touched bookkeeping fields (e.g. a parent's `updated` stamp). */
function bookkeepingOnly(change: RecordChange): boolean {
  if (change.kind !== "updated") return false;
  const a = comparableRecord(change.table, change.before as never);
  const b = comparableRecord(change.table, change.after as never);
  return [...new Set([...a.keys(), ...b.keys()])].every((k) => sameValue(a.get(k), b.get(k)));
}

/** A one-line description of a change, for explanations. */
export function describeChange(change: RecordChange): string {
  if (change.kind === "updated") return `updated ${change.table} ${change.id} (${change.fields.join(", ")})`;
  return `${change.kind} ${change.table} ${change.id}`;
}
