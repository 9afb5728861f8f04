/**
 * Effects of the agent's calls: each successful write's own diff (the site before and after it), from
 * which the reward learns who set an expected field, which writes changed nothing (wasted) and which
 * changes were made and later undone (reverted). Intermediate states of a record the task updates are
 * the route, not a revert, as long as the call that made them also changed a requested field (a
 * transition through Done sets and clears the resolution alongside the status).
 */
import type { RecordChange } from "../sandbox/diff.ts";
import { comparableRecord } from "./entity-fields.ts";
import type { Expectation } from "./expectation.ts";
import { sameValue } from "./match-value.ts";

export interface CallEffect {
  /** Index of the call on the trace. */
  index: number;
  changes: readonly RecordChange[];
}

const keyOf = (c: { table: string; id: string }): string => `${c.table}:${c.id}`;

/** Top-level fields whose comparable value a change altered (all of them for a create or delete). */
export function meaningfulFields(change: RecordChange): string[] {
  if (change.kind !== "updated") return ["*"];
  const a = comparableRecord(change.table, change.before as never);
  const b = comparableRecord(change.table, change.after as never);
  const keys = [...new Set([...a.keys(), ...b.keys()])].filter((k) => !sameValue(a.get(k), b.get(k)));
  return [...new Set(keys.map((k) => k.split(".")[0]!))];
}

/**
 * The last call that created or deleted the record or changed `field` on it; undefined when none did. A field a
 * task asks for counts even when it is bookkeeping for collateral purposes (a page's `version.number`,
 * a child page's `position`): then any change of its raw value counts.
 */
export function setterOf(
  effects: readonly CallEffect[],
  table: string,
  id: string,
  field: string,
): CallEffect | undefined {
  const top = field.split(".")[0]!;
  return [...effects]
    .reverse()
    .find((e) =>
      e.changes.some(
        (c) =>
          keyOf(c) === `${table}:${id}` &&
          (c.kind === "created" ||
            c.kind === "deleted" ||
            (c.kind === "updated" && (meaningfulFields(c).includes(top) || c.fields.includes(top)))),
      ),
    );
}

/** Successful writes that changed nothing a reader could see. */
export function wastedWrites(effects: readonly CallEffect[]): CallEffect[] {
  return effects.filter((e) => e.changes.every((c) => meaningfulFields(c).length === 0));
}

export interface Revert {
  index: number;
  message: string;
}

/**
 * Changes made and undone: a record some call changed that ends as it began (or was created and then
 * deleted); on a record the task updates, a field that ends as it began although a call that changed no
 * requested field changed it, and an element a call added to a requested collection (a label) that the
 * end state no longer holds.
 */
export function revertedMutations(
  expectation: Expectation,
  effects: readonly CallEffect[],
  net: readonly RecordChange[],
): Revert[] {
  const netKeys = new Map<string, RecordChange>(net.map((c) => [keyOf(c), c]));
  const updated = new Map<string, string[]>(
    expectation.entities.flatMap((e): [string, string[]][] =>
      e.kind === "update" ? [[`${e.table}:${e.id}`, Object.keys(e.fields).map((f) => f.split(".")[0]!)]] : [],
    ),
  );
  const reverts: Revert[] = [];
  const seen = new Set<string>();
  for (const effect of effects) {
    for (const change of effect.changes) {
      const key = keyOf(change);
      const fields = meaningfulFields(change);
      if (fields.length === 0) continue;
      const end = netKeys.get(key);
      if (!end || (end.kind === "updated" && meaningfulFields(end).length === 0)) {
        if (seen.has(key)) continue;
        seen.add(key);
        reverts.push({
          index: effect.index,
          message: `${change.table} ${change.id} was changed by call ${effect.index + 1} and later changed back`,
        });
        continue;
      }
      const requested = updated.get(key);
      if (requested && end.kind === "updated" && change.kind === "updated")
        for (const f of fields.filter((x) => requested.includes(x))) {
          // A collection field (labels): an element added on the way that the end state does not hold.
          const [before, after, final] = [change.before, change.after, end.after].map(
            (r) => (r as unknown as Record<string, unknown>)[f],
          );
          if (!Array.isArray(after) || !Array.isArray(final) || seen.has(`${key}.${f}+`)) continue;
          const dropped = after.filter(
            (v) => !(before as unknown[] | undefined)?.includes(v) && !final.includes(v),
          );
          if (dropped.length === 0) continue;
          seen.add(`${key}.${f}+`);
          reverts.push({
            index: effect.index,
            message: `${change.table} ${change.id}: ${f} got ${JSON.stringify(dropped)} from call ${effect.index + 1}, later taken out again`,
          });
        }
      if (!requested || end.kind !== "updated" || fields.some((f) => requested.includes(f))) continue;
      const endFields = meaningfulFields(end);
      for (const f of fields) {
        if (endFields.includes(f) || seen.has(`${key}.${f}`)) continue;
        seen.add(`${key}.${f}`);
        reverts.push({
          index: effect.index,
          message: `${change.table} ${change.id}: ${f} was changed by call ${effect.index + 1} and later changed back`,
        });
      }
    }
  }
  return reverts;
}

/** A write call as the trace holds it (what `repeatedWrites` compares). */
interface WriteCall {
  ok: boolean;
  effect: "read" | "write" | null;
  operationId: string | null;
  input: { params: Record<string, unknown>; body: unknown } | null;
}

/**
 * Writes the API rejected that repeat an earlier successful write exactly (same operation, same
 * input): a duplicate the API happened to refuse (a stale page version's 409, a removed label's 404) is
 * still a duplicate mutation. Indices on the trace.
 */
export function repeatedWrites(calls: readonly WriteCall[]): number[] {
  const done = new Set<string>();
  const repeated: number[] = [];
  calls.forEach((c, index) => {
    if (c.effect !== "write" || c.operationId === null || c.input === null) return;
    const key = `${c.operationId} ${JSON.stringify(c.input)}`;
    if (c.ok) done.add(key);
    else if (done.has(key)) repeated.push(index);
  });
  return repeated;
}
