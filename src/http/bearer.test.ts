import { describe, expect, it } from "vitest";
import { checkBearer, sameSecret } from "./bearer.ts";

describe("bearer checks", () => {
  it("accepts only the exact token, whatever its case of 'Bearer'", () => {
    expect(checkBearer("Bearer s3cret", "s3cret")).toBe("ok");
    expect(checkBearer("bearer  s3cret ", "s3cret")).toBe("ok");
    expect(checkBearer("Bearer s3cre", "s3cret")).toBe("wrong");
    expect(checkBearer("Bearer s3cretX", "s3cret")).toBe("wrong");
    expect(checkBearer("Basic czNjcmV0", "s3cret")).toBe("wrong");
    expect(checkBearer(undefined, "s3cret")).toBe("missing");
    expect(checkBearer(null, null)).toBe("ok");
  });

  it("compares secrets of any lengths", () => {
    expect(sameSecret("a", "a")).toBe(true);
    expect(sameSecret("a", "ab")).toBe(false);
    expect(sameSecret("", "x")).toBe(false);
  });
});
