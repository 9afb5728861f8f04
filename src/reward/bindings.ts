/**
 * Symbolic bindings of a workflow's composed expectation, resolved from the end state: a create that
 * declares `as: "step1.issue"` is matched to a created record by the verdict's own best fit, and every
 * `{ bound: "step1.issue.<field>" }` value (and every validate ref `bound` to it) then names that
 * record's field. So a later step's link must point at the issue the agent created, not at any issue.
 * Resolution is in entity order (a binding names an earlier create); a binding with no record resolves
 * to a value no record holds, so its fields fail and its step reports `unhonoured_binding`. A `fill`
 * value names a bound field inside its text (`{step1.issue.key}: Fix login`); it resolves the same way.
 */
import type { RecordChange } from "../sandbox/diff.ts";
import { rawField } from "./entity-fields.ts";
import type {
  EntityExpectation,
  EntityRef,
  Expectation,
  ExpectedCreate,
  ExpectedValue,
} from "./expectation.ts";
import { claimCreates } from "./verdict.ts";

/** What the bindings resolved to: the record each `as` matched (null when none). */
export type Resolved = Map<string, RecordChange | null>;

/** The value an unresolved binding takes: no record holds it. */
export const unresolvedValue = (binding: string) => `<no record for ${binding}>`;

const bindingOf = (path: string) => path.slice(0, path.lastIndexOf("."));

export const hasBindings = (x: Expectation): boolean =>
  x.entities.some((e) => e.kind === "create" && e.as !== undefined);

/** The expectation with every binding replaced by what `changes` (the episode's net diff) holds. */
export function resolveBindings(
  x: Expectation,
  changes: readonly RecordChange[],
): { expectation: Expectation; resolved: Resolved } {
  const resolved: Resolved = new Map();
  if (!hasBindings(x)) return { expectation: x, resolved };
  const taken = new Set<string>();
  const entities: EntityExpectation[] = [];
  for (const declared of x.entities) {
    const entity = resolveEntity(declared, resolved);
    if (entity.kind === "create" && entity.as !== undefined) {
      const free = changes.filter((c) => !taken.has(`${c.table}:${c.id}`));
      const match = claimCreates({ ...x, entities: [entity] }, free).get(entity)?.[0] ?? null;
      if (match) taken.add(`${match.table}:${match.id}`);
      resolved.set(entity.as, match);
    }
    entities.push(entity);
  }
  const refs = (list: EntityRef[]) => list.flatMap((r) => resolveRef(r, resolved));
  return {
    expectation: {
      ...x,
      entities,
      validate: refs(x.validate),
      ...(x.steps ? { steps: x.steps.map((s) => ({ ...s, validate: refs(s.validate) })) } : {}),
    },
    resolved,
  };
}

/** The value of `binding.field` on the resolved record (`id` is the record id). */
export function boundValue(path: string, resolved: Resolved): string | number | boolean | null {
  const binding = bindingOf(path);
  const field = path.slice(binding.length + 1);
  const record = resolved.get(binding);
  if (!record || record.kind === "deleted") return unresolvedValue(binding);
  const value = field === "id" ? record.id : rawField(record.after, field);
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean"
    ? value
    : unresolvedValue(binding);
}

/** A `{step1.issue.key}` placeholder of a `fill` value. */
const PLACEHOLDER = /\{(step\d+\.[a-z]+\.[A-Za-z.]+)\}/g;

/** The expected value with its binding (or its `fill` placeholders) replaced by what the records hold. */
function resolveValue(v: ExpectedValue, resolved: Resolved): ExpectedValue {
  if ("bound" in v) return { equals: boundValue(v.bound, resolved) };
  if (!("fill" in v)) return v;
  const text = JSON.stringify(v.fill).replace(PLACEHOLDER, (_, path: string) =>
    JSON.stringify(String(boundValue(path, resolved))).slice(1, -1),
  );
  return resolveValue(JSON.parse(text) as ExpectedValue, resolved);
}

function resolveEntity(entity: EntityExpectation, resolved: Resolved): EntityExpectation {
  if (entity.kind === "delete") return entity;
  const fields = Object.fromEntries(
    Object.entries(entity.fields).map(([f, v]): [string, ExpectedValue] => [f, resolveValue(v, resolved)]),
  );
  return { ...entity, fields } as ExpectedCreate | typeof entity;
}

function resolveRef(ref: EntityRef, resolved: Resolved): EntityRef[] {
  if (ref.bound === undefined) return [ref];
  const record = resolved.get(ref.bound);
  return record ? [{ table: ref.table, id: record.id }] : [];
}

/** The binding names an expectation's entity uses in its fields (for progress: a failing bound step). */
export function bindingsUsed(entity: EntityExpectation): string[] {
  if (entity.kind === "delete") return [];
  return Object.values(entity.fields).flatMap((v) =>
    "bound" in v
      ? [bindingOf(v.bound)]
      : "fill" in v
        ? [...JSON.stringify(v.fill).matchAll(PLACEHOLDER)].map((m) => bindingOf(m[1]!))
        : [],
  );
}
