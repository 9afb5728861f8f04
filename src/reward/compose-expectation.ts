/**
 * The composed expectation of a workflow: the union of its steps' expectations, each as its family
 * declares it, with bindings in place of the records earlier steps create. A later step's update of a
 * created record folds into that create (the end state shows one created record); its references to
 * the record's id or key become `{ bound }` values (`{ fill }` placeholders where the key or id sits
 * inside a text or a URL), its validate refs bound refs. Every other record
 * stays as the steps say; budget and points are derived (budgets add up; each step weighs 1/n of every
 * points group); two writes to one field of one record are refused here, at definition time.
 */
import { AtlasGymError } from "../errors.ts";
import type { TableName } from "../sandbox/site.ts";
import type {
  EntityExpectation,
  EntityRef,
  Expectation,
  ExpectationStep,
  ExpectedCreate,
  ExpectedValue,
} from "./expectation.ts";
import { fieldKeys } from "./expectation-rules.ts";

/** Thrown when workflow steps cannot be composed (conflicting writes, a binding a step cannot take). */
export class CompositionError extends AtlasGymError {
  override name = "CompositionError";
}

/** A record a step creates that later steps use, as the step's reference made it on the generation site. */
export interface ProducedRecord {
  /** The binding name, e.g. `step1.issue`. */
  as: string;
  table: TableName;
  id: string;
  key?: string;
}

export interface ComposeStep {
  scenario: string;
  /** The step's expectation, as its family declares it on the site the step starts from. */
  expectation: Expectation;
  produces?: ProducedRecord;
}

export function composeExpectation(steps: readonly ComposeStep[], where: string): Expectation {
  const fail = (why: string): never => {
    throw new CompositionError(`${where}: ${why}`);
  };
  const n = steps.length;
  if (n === 0) fail("a workflow has at least one step");
  const entities: EntityExpectation[] = [];
  const weights: Record<string, number> = {};
  const parts: ExpectationStep[] = [];
  const producers: { record: ProducedRecord; entity: ExpectedCreate }[] = [];
  const points = { fields: 0, validate: 0, verify: 0, decline: 0 };
  let budget = 0;

  steps.forEach((step, i) => {
    const x = step.expectation;
    const tag = `step ${i + 1} (${step.scenario})`;
    budget += x.budget;
    points.validate += x.points.validate / n;
    const validate = x.validate.map((r) => bindRef(r, producers));
    if (x.refuse !== undefined) {
      if (step.produces) fail(`${tag} must be declined, so no later step can use what it would create`);
      // Nothing is written, so nothing is verified: a refusal's verify share (if any) goes to its decline.
      const decline = (x.points.fields + x.points.verify) / n;
      points.decline += decline;
      parts.push({
        scenario: step.scenario,
        keys: [],
        validate,
        points: { validate: x.points.validate / n, verify: 0, decline },
        refuse: x.refuse,
        ...(x.refuseNames ? { refuseNames: x.refuseNames } : {}),
      });
      return;
    }
    points.fields += x.points.fields / n;
    points.verify += x.points.verify / n;
    const own = fieldKeys(x);
    const weightOf = (key: string) => (x.weights?.[key] ?? x.points.fields / Math.max(1, own.length)) / n;
    const keys: string[] = [];
    for (const declared of x.entities) {
      const entity = bindEntity(declared, producers, tag, fail);
      const target = targetOf(entity, entities, producers);
      if (entity.kind === "create" && target === undefined) {
        const ref = uniqueRef(`s${i + 1} ${entity.ref}`, entities);
        const made: ExpectedCreate = { ...entity, ref };
        if (
          step.produces &&
          step.produces.table === entity.table &&
          !producers.some((p) => p.entity === made)
        ) {
          if (!producers.some((p) => p.record.as === step.produces!.as)) {
            made.as = step.produces.as;
            producers.push({ record: step.produces, entity: made });
          }
        }
        entities.push(made);
        for (const f of Object.keys(made.fields)) {
          keys.push(`${ref}.${f}`);
          weights[`${ref}.${f}`] = weightOf(`${declared.ref}.${f}`);
        }
      } else if (entity.kind === "delete") {
        if (target) fail(`${tag} deletes ${entity.ref}, which another step writes`);
        const ref = uniqueRef(`s${i + 1} ${entity.ref}`, entities);
        entities.push({ ...entity, ref });
        keys.push(`${ref}.deleted`);
        weights[`${ref}.deleted`] = weightOf(`${declared.ref}.deleted`);
      } else if (target === undefined) {
        const ref = uniqueRef(`s${i + 1} ${entity.ref}`, entities);
        entities.push({ ...entity, ref });
        for (const f of Object.keys(entity.fields)) {
          keys.push(`${ref}.${f}`);
          weights[`${ref}.${f}`] = weightOf(`${declared.ref}.${f}`);
        }
      } else {
        // Another step already writes this record: its fields join that entity, one write per field.
        if (target.kind === "delete") fail(`${tag} writes ${entity.ref}, which another step deletes`);
        const into = target as Exclude<EntityExpectation, { kind: "delete" }>;
        for (const [f, v] of Object.entries((entity as ExpectedCreate).fields)) {
          if (f in into.fields)
            fail(`${tag} and an earlier step both set ${f} of ${into.ref}: two writes to one field conflict`);
          into.fields[f] = v;
          keys.push(`${into.ref}.${f}`);
          weights[`${into.ref}.${f}`] = weightOf(`${declared.ref}.${f}`);
        }
      }
    }
    parts.push({
      scenario: step.scenario,
      keys,
      validate,
      points: { validate: x.points.validate / n, verify: x.points.verify / n, decline: 0 },
    });
  });
  for (const p of steps.flatMap((s) => (s.produces ? [s.produces] : [])))
    if (!producers.some((q) => q.record.as === p.as))
      fail(`no step creates a record in ${p.table} for ${p.as}`);
  const validate = dedupe(parts.flatMap((p) => p.validate));
  return {
    entities,
    validate,
    budget,
    points:
      points.decline > 0
        ? points
        : { fields: points.fields, validate: points.validate, verify: points.verify },
    weights,
    steps: parts,
  };
}

/** The entity an update or create of this step joins: a record another step creates or updates. */
function targetOf(
  entity: EntityExpectation,
  entities: readonly EntityExpectation[],
  producers: readonly { record: ProducedRecord; entity: ExpectedCreate }[],
): EntityExpectation | undefined {
  if (entity.kind === "create") return undefined;
  const produced = producers.find((p) => p.record.table === entity.table && p.record.id === entity.id);
  if (produced) return produced.entity;
  return entities.find((e) => e.kind !== "create" && e.table === entity.table && e.id === entity.id);
}

/**
 * Values naming a produced record become bindings: its id or key as the whole value a `{ bound }`, its key
 * inside a text (a "KEY: summary" title) or its id in a path (`/pages/<id>/`, `pageId=<id>`) a `{ fill }`
 * with placeholders the verdict resolves from the end state.
 */
function bindEntity(
  entity: EntityExpectation,
  producers: readonly { record: ProducedRecord }[],
  tag: string,
  fail: (why: string) => never,
): EntityExpectation {
  if (entity.kind === "delete") return { ...entity };
  const fields: Record<string, ExpectedValue> = {};
  for (const [f, v] of Object.entries(entity.fields)) {
    const hit =
      "equals" in v
        ? producers.find((p) => v.equals === p.record.id || (p.record.key && v.equals === p.record.key))
        : undefined;
    if (hit && "equals" in v) {
      fields[f] = { bound: `${hit.record.as}.${v.equals === hit.record.id ? "id" : "key"}` };
      continue;
    }
    const text = JSON.stringify(v);
    let filled = text;
    for (const { record } of producers) {
      if (record.key)
        filled = filled.replace(
          new RegExp(`(?<![A-Za-z0-9-])${record.key}(?![0-9])`, "g"),
          `{${record.as}.key}`,
        );
      filled = filled.replace(new RegExp(`(?<=[/=])${record.id}(?![0-9])`, "g"), `{${record.as}.id}`);
    }
    if (filled !== text && "fill" in v) fail(`${tag}: ${entity.ref}.${f} already holds placeholders`);
    fields[f] = filled === text ? v : { fill: JSON.parse(filled) as ExpectedValue };
  }
  return { ...entity, fields } as EntityExpectation;
}

function bindRef(ref: EntityRef, producers: readonly { record: ProducedRecord }[]): EntityRef {
  const hit = producers.find((p) => p.record.table === ref.table && p.record.id === ref.id);
  return hit ? { table: ref.table, id: hit.record.as, bound: hit.record.as } : ref;
}

function uniqueRef(ref: string, entities: readonly EntityExpectation[]): string {
  let out = ref;
  for (let k = 2; entities.some((e) => e.ref === out); k++) out = `${ref} (${k})`;
  return out;
}

const dedupe = (refs: EntityRef[]) =>
  refs.filter((r, i) => refs.findIndex((o) => o.table === r.table && o.id === r.id) === i);
