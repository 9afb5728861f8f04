/**
 * Random arguments that are valid against a tool's JSON Schema (the subset tool schemas use: type,
 * enum, const, anyOf/oneOf, object properties and required, items, string length and pattern, number
 * bounds), drawn from a seeded Random — the arguments of the `random` policy, the floor of any eval.
 * Optional properties are included with probability 1/2; strings are short random words or digits.
 */
import type { Random } from "../../sandbox/random.ts";

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema documents are untyped
type Schema = Record<string, any>;

const WORDS = ["alpha", "ENG", "ENG-1", "10000", "Done", "page", "test", "x", "2026-01-01", "42"];

function randomString(schema: Schema, random: Random): string {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Math.max(min, 12);
  const fits = (s: string) =>
    s.length >= min && s.length <= max && (!schema.pattern || new RegExp(schema.pattern, "u").test(s));
  const digits = String(random.int(1, 99_999));
  const candidates = [random.pick(WORDS), digits, ...WORDS, "a".repeat(Math.max(1, min))];
  return candidates.find(fits) ?? "a".repeat(min);
}

function randomNumber(schema: Schema, integer: boolean, random: Random): number {
  const low = Math.ceil(schema.minimum ?? (schema.exclusiveMinimum ?? -1) + (integer ? 1 : 0));
  const high = Math.floor(schema.maximum ?? (schema.exclusiveMaximum ?? 101) - (integer ? 1 : 0));
  const value = random.int(low, Math.max(low, high));
  return integer ? value : value + (value < high ? random.int(0, 99) / 100 : 0);
}

export function randomValue(schema: Schema | boolean | undefined, random: Random, depth = 0): unknown {
  if (schema === undefined || typeof schema === "boolean") return random.pick(WORDS);
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return random.pick(schema.enum);
  const options = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options)) return randomValue(random.pick(options), random, depth);
  const types: string[] = Array.isArray(schema.type)
    ? schema.type
    : [schema.type ?? (schema.properties ? "object" : "string")];
  const type = random.pick(
    types.filter((t) => t !== "null").length > 0 ? types.filter((t) => t !== "null") : types,
  );
  switch (type) {
    case "object": {
      const required = new Set<string>(schema.required ?? []);
      const out: Record<string, unknown> = {};
      for (const [name, property] of Object.entries<Schema>(schema.properties ?? {})) {
        if (required.has(name) || (depth < 3 && random.int(0, 1) === 1))
          out[name] = randomValue(property, random, depth + 1);
      }
      return out;
    }
    case "array": {
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? min + 2, min + 2);
      const length = depth >= 3 ? min : random.int(min, Math.max(min, max));
      const items = Array.from({ length }, () => randomValue(schema.items, random, depth + 1));
      return schema.uniqueItems ? [...new Map(items.map((i) => [JSON.stringify(i), i])).values()] : items;
    }
    case "integer":
      return randomNumber(schema, true, random);
    case "number":
      return randomNumber(schema, false, random);
    case "boolean":
      return random.int(0, 1) === 1;
    case "null":
      return null;
    default:
      return randomString(schema, random);
  }
}
