/**
 * JSON Schema (as in Atlassian's OpenAPI documents) to a fast-check arbitrary of values valid against it:
 * `$ref`s resolved in the document, enums, `oneOf`/`anyOf`/`allOf`, required and optional properties,
 * `additionalProperties`, arrays, formats that matter (date-time). Depth is bounded: past `MAX_DEPTH`
 * only required properties are generated and arrays are empty, so recursive schemas (ADF nodes,
 * JsonType) stay finite. A property or parameter with a real value on the seeded site (see
 * site-values.ts) takes it most of the time.
 */
import fc from "fast-check";

/** A schema object as read from the document; only the keywords used here are typed. */
export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  readOnly?: boolean;
}

export interface SchemaContext {
  /** The document the schema's `$ref`s point into. */
  doc: object;
  /** Real values for a named property or parameter, if the site has some. */
  valuesFor(name: string): fc.Arbitrary<unknown> | undefined;
}

const MAX_DEPTH = 4;

/** Follows a local `#/a/b` reference (repeatedly) to the object it names. */
export function deref<T extends object>(doc: object, node: T): T {
  let current: object = node;
  for (let hops = 0; "$ref" in current && hops < 16; hops++) {
    const ref = (current as { $ref: string }).$ref;
    const target = ref
      .slice(2)
      .split("/")
      .reduce<unknown>((at, part) => (at as Record<string, unknown>)?.[part.replace(/~1/g, "/")], doc);
    if (!target) throw new Error(`Unresolved $ref ${ref}`);
    current = target as object;
  }
  return current as T;
}

export function arbitraryOf(
  schema: Schema | undefined,
  ctx: SchemaContext,
  depth = 0,
  name?: string,
): fc.Arbitrary<unknown> {
  const generic = genericOf(schema ? deref(ctx.doc, schema) : {}, ctx, depth);
  const real = name === undefined ? undefined : ctx.valuesFor(name);
  return real ? fc.oneof({ arbitrary: real, weight: 4 }, { arbitrary: generic, weight: 1 }) : generic;
}

function genericOf(s: Schema, ctx: SchemaContext, depth: number): fc.Arbitrary<unknown> {
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => arbitraryOf(a, ctx, depth + 1)));
  if (s.allOf?.length) return objectOf(mergeAll(s.allOf.map((a) => deref(ctx.doc, a))), ctx, depth);
  switch (s.type) {
    case "string":
      return stringOf(s);
    case "integer":
      return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 1_000_000 });
    case "number":
      return fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(arbitraryOf(s.items, ctx, depth + 1), { maxLength: depth >= MAX_DEPTH ? 0 : 3 });
    case "object":
      return objectOf(s, ctx, depth);
    default:
      return s.properties ? objectOf(s, ctx, depth) : fc.jsonValue({ maxDepth: 2 });
  }
}

function stringOf(s: Schema): fc.Arbitrary<string> {
  if (s.format === "date-time") return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  const minLength = s.minLength ?? 0;
  const maxLength = Math.min(s.maxLength ?? 24, 24);
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ unit: "grapheme", minLength, maxLength }));
}

function objectOf(s: Schema, ctx: SchemaContext, depth: number): fc.Arbitrary<unknown> {
  const required = new Set(s.required ?? []);
  const entries = Object.entries(s.properties ?? {}).filter(
    ([key, prop]) => required.has(key) || (depth < MAX_DEPTH && !deref(ctx.doc, prop).readOnly),
  );
  // Optional properties are mostly left out (one arbitrary value in each of several is almost always
  // refused, which would leave the operation behind untested); those with real values come more often.
  const record = fc
    .tuple(
      ...entries.map(([key, prop]) => {
        const value = arbitraryOf(prop, ctx, depth + 1, key).map((v) => [key, v] as const);
        if (required.has(key)) return value;
        return maybe(value, ctx.valuesFor(key) ? 1 : 3);
      }),
    )
    .map((pairs) => Object.fromEntries(pairs.filter((pair) => pair !== null)));
  const extra = s.additionalProperties;
  if (!extra || depth >= MAX_DEPTH) return record;
  const values = extra === true ? fc.jsonValue({ maxDepth: 1 }) : arbitraryOf(extra, ctx, depth + 1);
  return fc
    .tuple(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), values, { maxKeys: 2 }), record)
    .map(([more, known]) => ({ ...more, ...known }));
}

/** The value, or null (`absentWeight` times as likely). */
export function maybe<T>(value: fc.Arbitrary<T>, absentWeight: number): fc.Arbitrary<T | null> {
  return fc.oneof({ arbitrary: fc.constant(null), weight: absentWeight }, { arbitrary: value, weight: 1 });
}

function mergeAll(parts: Schema[]): Schema {
  return parts.reduce<Schema>(
    (into, part) => ({
      type: "object",
      properties: { ...into.properties, ...part.properties },
      required: [...(into.required ?? []), ...(part.required ?? [])],
      additionalProperties: into.additionalProperties ?? part.additionalProperties,
    }),
    {},
  );
}
