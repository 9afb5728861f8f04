/**
 * quickParser: a plain-JavaScript fast path compiled from a zod schema, for the inputs that every call
 * sends (a tool's path and query parameters, an env-server request body). It understands a small part
 * of zod (objects, strings with length and regex checks, numbers with integer and bound checks, coerced
 * or not, booleans, arrays, enums, literals, optional/nullable, `unknown`, and preprocessing pipes such
 * as qList/qBool/qInt/numericId) and answers either exactly what the schema's parse would give
 * (fresh objects and arrays, keys in the shape's order) or MISS when it is not sure; on MISS the caller
 * runs zod itself, so every rejection (and its message) still comes from zod. A schema with anything
 * else in it compiles to null: it always takes zod's path. The schema stays the one source of truth.
 */
import type { z } from "zod";

/** "Not sure: ask zod." */
export const MISS: unique symbol = Symbol("quick-parse miss");

export type QuickParser = (value: unknown) => unknown;

/** A check as zod v4 keeps it (`schema._zod.def.checks[i]._zod.def`). */
interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: unknown;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
}

/** The parts of a zod v4 definition read here. */
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  coerce?: boolean;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  transform?: (value: unknown) => unknown;
  entries?: Record<string, unknown>;
  values?: unknown[];
}

const compiled = new WeakMap<z.ZodType, QuickParser | null>();

/** The schema's fast path (compiled once per schema), or null when it has none. */
export function quickParser(schema: z.ZodType): QuickParser | null {
  let parser = compiled.get(schema);
  if (parser === undefined) {
    parser = compile(schema);
    compiled.set(schema, parser);
  }
  return parser;
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The types whose parsers read their own checks; a check on any other (a refinement) is not understood. */
const READS_CHECKS = new Set(["string", "boolean", "number", "array"]);

function compile(schema: z.ZodType): QuickParser | null {
  const def = defOf(schema);
  if (def.checks?.length && !READS_CHECKS.has(def.type)) return null;
  switch (def.type) {
    case "unknown":
    case "any":
      return (value) => value;
    case "string":
      return typed("string", lengthChecks(def));
    case "boolean":
      return def.checks?.length || def.coerce ? null : (value) => (typeof value === "boolean" ? value : MISS);
    case "number":
      return numberParser(def);
    case "enum": {
      const allowed = new Set(Object.values(def.entries ?? {}));
      return (value) => (allowed.has(value) ? value : MISS);
    }
    case "literal": {
      const allowed = new Set(def.values ?? []);
      return (value) => (allowed.has(value) ? value : MISS);
    }
    case "optional":
    case "nullable": {
      const inner = def.innerType && compile(def.innerType);
      if (!inner) return null;
      const empty = def.type === "optional" ? undefined : null;
      return (value) => (value === empty ? value : inner(value));
    }
    case "array":
      return arrayParser(def);
    case "pipe":
      return pipeParser(def);
    case "object":
      return objectParser(def);
    default:
      return null;
  }
}

/** A string that passes the checks (null when a check is not understood). */
function typed(type: "string", check: ((value: never) => boolean) | null): QuickParser | null {
  if (!check) return null;
  return (value) => (typeof value === type && check(value as never) ? value : MISS);
}

/** Length bounds (strings, arrays) and, for strings, `.regex()` patterns. */
function lengthChecks(def: Def): ((value: { length: number }) => boolean) | null {
  if (def.coerce) return null;
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  const patterns: RegExp[] = [];
  for (const { _zod } of def.checks ?? []) {
    const c = _zod.def;
    if (c.check === "min_length" && typeof c.minimum === "number") min = Math.max(min, c.minimum);
    else if (c.check === "max_length" && typeof c.maximum === "number") max = Math.min(max, c.maximum);
    else if (c.check === "string_format" && c.format === "regex" && c.pattern instanceof RegExp)
      patterns.push(c.pattern);
    else return null;
  }
  return (value) => {
    if (value.length < min || value.length > max) return false;
    for (const pattern of patterns) {
      pattern.lastIndex = 0;
      if (!pattern.test(value as unknown as string)) return false;
    }
    return true;
  };
}

/** A number; with `z.coerce` (qInt), a string or number read by Number() first, as zod reads it. */
function numberParser(def: Def): QuickParser | null {
  const check = numberChecks(def);
  if (!check) return null;
  if (!def.coerce) return (value) => (typeof value === "number" && check(value) ? value : MISS);
  return (value) => {
    if (typeof value !== "string" && typeof value !== "number") return MISS;
    const n = Number(value);
    return check(n) ? n : MISS;
  };
}

function numberChecks(def: Def): ((value: number) => boolean) | null {
  const tests: ((n: number) => boolean)[] = [Number.isFinite];
  for (const { _zod } of def.checks ?? []) {
    const c = _zod.def;
    const bound = c.value;
    if (c.check === "number_format" && c.format === "safeint") tests.push(Number.isSafeInteger);
    else if (c.check === "greater_than" && typeof bound === "number")
      tests.push(c.inclusive ? (n) => n >= bound : (n) => n > bound);
    else if (c.check === "less_than" && typeof bound === "number")
      tests.push(c.inclusive ? (n) => n <= bound : (n) => n < bound);
    else return null;
  }
  return (value) => tests.every((test) => test(value));
}

function arrayParser(def: Def): QuickParser | null {
  const element = def.element && compile(def.element);
  const length = lengthChecks(def);
  if (!element || !length) return null;
  return (value) => {
    if (!Array.isArray(value) || !length(value)) return MISS;
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = element(value[i]);
      if (item === MISS) return MISS;
      out[i] = item;
    }
    return out;
  };
}

/**
 * `z.preprocess(fn, schema)` is a pipe from a transform to the schema. Only a transform that cannot
 * report an issue (a function of the value alone) is run here; it must not be async.
 */
function pipeParser(def: Def): QuickParser | null {
  if (!def.in || !def.out) return null;
  const first = defOf(def.in);
  const out = compile(def.out);
  if (!out) return null;
  if (first.type === "transform") {
    const fn = first.transform;
    if (typeof fn !== "function" || fn.length > 1) return null;
    return (value) => {
      const next = fn(value);
      return next instanceof Promise ? MISS : out(next);
    };
  }
  const inner = compile(def.in);
  if (!inner) return null;
  return (value) => {
    const next = inner(value);
    return next === MISS ? MISS : out(next);
  };
}

/**
 * A plain object (as JSON.parse makes them): unknown keys are dropped (z.object) or send it to zod
 * (z.strictObject, whose error names them); the output has the shape's keys in the shape's order.
 */
function objectParser(def: Def): QuickParser | null {
  const strict = def.catchall !== undefined && defOf(def.catchall).type === "never";
  if (def.catchall !== undefined && !strict) return null;
  const fields: [string, QuickParser, boolean][] = [];
  for (const [key, schema] of Object.entries(def.shape ?? {})) {
    const parse = compile(schema);
    if (!parse) return null;
    fields.push([key, parse, defOf(schema).type === "optional"]);
  }
  const known = new Set(fields.map(([key]) => key));
  return (value) => {
    if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype)
      return MISS;
    const input = value as Record<string, unknown>;
    if (strict) for (const key in input) if (!known.has(key)) return MISS;
    const out: Record<string, unknown> = {};
    for (const [key, parse, optional] of fields) {
      const item = input[key];
      if (item === undefined) {
        // An absent optional key stays absent; one present as undefined is zod's to answer.
        if (!optional || Object.hasOwn(input, key)) return MISS;
        continue;
      }
      const parsed = parse(item);
      if (parsed === MISS) return MISS;
      out[key] = parsed;
    }
    return out;
  };
}
