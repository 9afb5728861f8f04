import { describe, expect, it } from "vitest";
import type { AuthResult } from "./basic-auth.ts";
import { rememberAccepted } from "./remembered-auth.ts";

/** A check that accepts headers starting with "ok", counting how often it ran. */
function counted() {
  const seen: (string | null | undefined)[] = [];
  const check = (header: string | null | undefined): AuthResult => {
    seen.push(header);
    return header?.startsWith("ok") ? { ok: true, email: header } : { ok: false, message: "no" };
  };
  return { seen, check };
}

describe("an auth check that remembers what it accepted", () => {
  it("decides an accepted header once, and a refused one every time", () => {
    const { seen, check } = counted();
    const remembered = rememberAccepted(check);
    for (let i = 0; i < 3; i++) {
      expect(remembered("ok a")).toEqual({ ok: true, email: "ok a" });
      expect(remembered("bad")).toEqual({ ok: false, message: "no" });
      expect(remembered(undefined)).toEqual({ ok: false, message: "no" });
    }
    expect(seen).toEqual(["ok a", "bad", undefined, "bad", undefined, "bad", undefined]);
  });

  it("holds at most maxHeaders accepted headers, starting over when full", () => {
    const { seen, check } = counted();
    const remembered = rememberAccepted(check, 2);
    for (const header of ["ok 1", "ok 2", "ok 1", "ok 3", "ok 1", "ok 3"]) remembered(header);
    // "ok 3" found the map full (1, 2) and started it over: "ok 1" is decided again, then kept beside 3.
    expect(seen).toEqual(["ok 1", "ok 2", "ok 3", "ok 1"]);
  });
});
