import { describe, expect, it } from "vitest";
import { sameSecret } from "./bearer.ts";

describe("sameSecret", () => {
  it("compares secrets of any lengths", () => {
    expect(sameSecret("a", "a")).toBe(true);
    expect(sameSecret("a", "ab")).toBe(false);
    expect(sameSecret("", "x")).toBe(false);
  });
});
