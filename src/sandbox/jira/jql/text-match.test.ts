import { describe, expect, it } from "vitest";
import { compileTextQuery } from "./text-match.ts";

const matches = (query: string, text: string) => compileTextQuery(query).matches(text);

describe("compileTextQuery", () => {
  const text = "Migrate CI caches to the new build cluster";

  it("matches whole words case-insensitively, all of them, in any order", () => {
    expect(matches("migrate", text)).toBe(true);
    expect(matches("CLUSTER build", text)).toBe(true);
    expect(matches("build runners", text)).toBe(false);
  });

  it("does not match substrings of words", () => {
    expect(matches("migr", text)).toBe(false);
    expect(matches("clust", text)).toBe(false);
  });

  it("matches singular and plural forms", () => {
    expect(matches("cache", text)).toBe(true);
    expect(matches("clusters", text)).toBe(true);
    expect(matches("stories", "A story about search")).toBe(true);
  });

  it("supports * and ? wildcards inside a word", () => {
    expect(matches("migr*", text)).toBe(true);
    expect(matches("b?ild", text)).toBe(true);
    expect(matches("x*", text)).toBe(false);
  });

  it("matches quoted phrases as consecutive words, ignoring stop words", () => {
    expect(matches('"new build"', text)).toBe(true);
    expect(matches('"build new"', text)).toBe(false);
    expect(matches('"caches to the new"', text)).toBe(true);
  });

  it("ignores stop words and reports a query with nothing searchable", () => {
    expect(matches("the cluster", text)).toBe(true);
    expect(compileTextQuery("the of and").searchable).toBe(false);
    expect(matches("the", text)).toBe(false);
    expect(compileTextQuery("?!").searchable).toBe(false);
  });
});
