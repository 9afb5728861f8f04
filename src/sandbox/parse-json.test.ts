/** parseJson: JSON.parse under a nesting limit, brackets inside strings not counted. */
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, parseJson, tooDeep } from "./parse-json.ts";

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("parseJson", () => {
  it("parses values nested up to the limit", () => {
    let value = parseJson(nested(MAX_JSON_DEPTH));
    for (let level = 1; level < MAX_JSON_DEPTH; level++) value = (value as unknown[])[0];
    expect(value).toEqual([]);
    expect(parseJson(`{"a":${nested(MAX_JSON_DEPTH - 1)}}`)).toHaveProperty("a");
  });

  it("refuses one level more with a SyntaxError, as malformed JSON", () => {
    expect(() => parseJson(nested(MAX_JSON_DEPTH + 1))).toThrow(SyntaxError);
    expect(() => parseJson(`{"a":${nested(MAX_JSON_DEPTH)}}`)).toThrow(/nested deeper than 1000 levels/);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ s: `\\"${"[{".repeat(2 * MAX_JSON_DEPTH)}`, t: 'x"[' });
    expect(parseJson(text)).toEqual(JSON.parse(text));
  });

  it("still refuses malformed JSON as JSON.parse does", () => {
    expect(() => parseJson("{")).toThrow(SyntaxError);
    expect(parseJson("12")).toBe(12);
  });

  it("measures a value already parsed the same way, without recursion", () => {
    expect(tooDeep(JSON.parse(nested(MAX_JSON_DEPTH)))).toBe(false);
    expect(tooDeep(JSON.parse(`{"a":1,"b":${nested(MAX_JSON_DEPTH - 1)}}`))).toBe(false);
    expect(tooDeep({ a: 1, b: JSON.parse(nested(MAX_JSON_DEPTH)) })).toBe(true);
    let deep: unknown = "x";
    for (let i = 0; i < 200_000; i++) deep = { content: [deep] };
    expect(tooDeep(deep)).toBe(true);
    expect([tooDeep("text"), tooDeep(null), tooDeep(7)]).toEqual([false, false, false]);
  });
});
