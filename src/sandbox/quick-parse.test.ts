import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getIssue } from "./jira/operations/issues.ts";
import { OPERATIONS } from "./operations.ts";
import { numericId, qBool, qInt } from "./params.ts";
import { MISS, quickParser } from "./quick-parse.ts";

/** Values of the kinds tool arguments and query parameters arrive as, including wrong ones. */
const leaf = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom("", "a,b", " x , ,y ", "true", "TRUE", "false", "ENG-1", "-3", "1.5", "__proto__"),
  fc.constantFrom("10001", "7", "0", "25"),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0, 1, 2 ** 53, -0, 1.5, Number.NaN, Number.POSITIVE_INFINITY),
  fc.boolean(),
  fc.constantFrom(null, undefined),
);
const value = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 2, arbitrary: fc.array(leaf, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 3 }), leaf, { maxKeys: 2 }) },
);

/**
 * Objects over a schema's own keys (its required keys mostly present, its optional ones sometimes) plus,
 * sometimes, a key it does not know; and now and then any value at all.
 */
function inputsFor(schema: z.ZodType): fc.Arbitrary<unknown> {
  const shape = (schema as unknown as { _zod: { def: { shape?: Record<string, z.ZodType> } } })._zod.def
    .shape;
  if (!shape) return value;
  const keys = Object.keys(shape);
  const required = new Set(keys.filter((key) => !shape[key]!.safeParse(undefined).success));
  // A required key is present 9 times in 10, an optional one 3 times in 10.
  const field = (key: string) =>
    fc
      .tuple(fc.integer({ min: 0, max: 9 }), value)
      .map(([d, v]) => (d < (required.has(key) ? 9 : 3) ? [v] : []));
  const record = fc
    .tuple(...keys.map(field))
    .map((picked) => Object.fromEntries(keys.flatMap((key, i) => picked[i]!.map((v) => [key, v]))));
  return fc.oneof(
    { weight: 6, arbitrary: record },
    { weight: 1, arbitrary: fc.tuple(record, leaf).map(([r, extra]) => ({ ...r, unknownKey: extra })) },
    { weight: 1, arbitrary: value },
  );
}

let answered = 0;

/** Either MISS, or exactly zod's answer: accepted, the same data, the same keys in the same order. */
function agreesWithZod(schema: z.ZodType, input: unknown): boolean {
  const quick = quickParser(schema)!(input);
  if (quick === MISS) return true;
  answered++;
  const zod = schema.safeParse(input);
  expect(zod.success).toBe(true);
  expect(quick).toStrictEqual(zod.data);
  expect(JSON.stringify(quick)).toBe(JSON.stringify(zod.data));
  return true;
}

describe("quickParser: zod's answer without zod, or MISS", () => {
  const schemas = OPERATIONS.flatMap((op) => [
    [`${op.operationId} params`, op.params] as const,
    ...(op.body ? [[`${op.operationId} body`, op.body] as const] : []),
  ]);
  const fast = schemas.filter(([, schema]) => quickParser(schema) !== null);

  it("compiles the parameters of most operations (the hot reads among them)", () => {
    expect(quickParser(getIssue.params)).not.toBeNull();
    expect(fast.length).toBeGreaterThan(schemas.length / 2);
  });

  it.each(fast)("%s: every answer it gives is zod's", (_, schema) => {
    const before = answered;
    fc.assert(
      fc.property(inputsFor(schema), (input) => agreesWithZod(schema, input)),
      { seed: 20, numRuns: 400 },
    );
    // The inputs reach its answers, not only its misses (an operation with a required id less often).
    expect(answered - before).toBeGreaterThan(0);
  });

  it("answers a tool's usual getIssue arguments itself, as zod would", () => {
    const parse = quickParser(getIssue.params)!;
    const args = { issueIdOrKey: "ENG-1", fields: ["summary", "status"], expand: "names, transitions" };
    const answer = parse(args);
    expect(answer).toStrictEqual(getIssue.params.parse(args));
    expect(answer).toStrictEqual({
      issueIdOrKey: "ENG-1",
      fields: ["summary", "status"],
      expand: ["names", "transitions"],
    });
    expect((answer as { fields: unknown }).fields).not.toBe(args.fields);
  });

  it("leaves every rejection to zod", () => {
    const parse = quickParser(getIssue.params)!;
    expect(parse({ issueIdOrKey: "" })).toBe(MISS);
    expect(parse({ fields: ["summary"] })).toBe(MISS);
    expect(parse({ issueIdOrKey: "ENG-1", fields: [1] })).toBe(MISS);
    expect(parse("ENG-1")).toBe(MISS);
    const strict = z.strictObject({
      seq: z.number().int().min(1).optional(),
      arguments: z.unknown().optional(),
    });
    const body = quickParser(strict)!;
    expect(body({ arguments: { a: 1 }, seq: 2 })).toStrictEqual({ arguments: { a: 1 }, seq: 2 });
    for (const bad of [{ seq: 0 }, { seq: 1.5 }, { seq: "1" }, { extra: 1 }, { seq: undefined }, []])
      expect(body(bad)).toBe(MISS);
  });

  it("compiles nothing it does not understand (unions, defaults, refinements, other checks)", () => {
    expect(quickParser(z.union([z.string(), z.number()]))).toBeNull();
    expect(quickParser(z.object({ s: z.string().default("x") }))).toBeNull();
    expect(quickParser(z.object({ n: z.number().multipleOf(2) }))).toBeNull();
    expect(quickParser(z.string().email())).toBeNull();
    expect(quickParser(z.string().refine((s) => s !== "x"))).toBeNull();
    expect(quickParser(qInt().refine((n) => n >= 0))).toBeNull();
    expect(quickParser(z.object({ a: z.string() }).refine((o) => o.a !== "x"))).toBeNull();
    expect(quickParser(z.looseObject({ a: z.string() }))).toBeNull();
  });

  it("reads coerced integers and regex-checked ids as zod does", () => {
    const schema = z.object({
      limit: qInt().pipe(z.number().min(1).max(250)).optional(),
      id: numericId(),
      on: qBool().optional(),
    });
    const parse = quickParser(schema)!;
    expect(parse({ limit: "25", id: "123", on: "TRUE" })).toStrictEqual({ limit: 25, id: "123", on: true });
    expect(parse({ id: 65 })).toStrictEqual(schema.parse({ id: 65 }));
    expect(parse({ id: "1", limit: ["5", "6"] })).toStrictEqual({ limit: 5, id: "1" });
    for (const bad of [
      { id: "1", limit: true },
      { id: "1", limit: null },
      { id: "12a" },
      { id: "1", limit: "0" },
      { id: "1", limit: "2.5" },
      { id: "1", limit: [] },
    ])
      expect(parse(bad)).toBe(MISS);
  });
});
