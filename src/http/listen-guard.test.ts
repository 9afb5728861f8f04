import { describe, expect, it } from "vitest";
import { UsageError } from "../errors.ts";
import { isLoopback, refuseOpenListen } from "./listen-guard.ts";

describe("the listening rule", () => {
  it("knows loopback from everything else, the any-address spellings included", () => {
    expect(
      ["127.0.0.1", "127.4.0.9", "localhost", "LOCALHOST", "::1", "[::1]", "::ffff:127.0.0.1"].every(
        isLoopback,
      ),
    ).toBe(true);
    for (const host of ["0.0.0.0", "::", "[::]", "0", "", "10.0.0.5", "example.com", "127.0.0.1.example.com"])
      expect(isLoopback(host), JSON.stringify(host)).toBe(false);
  });

  it("refuses beyond loopback without a token, in serve's words, and lets a token or loopback through", () => {
    expect(() => refuseOpenListen({ host: "0.0.0.0", token: null })).toThrow(
      new UsageError(
        "refusing to listen on 0.0.0.0 without a token: anyone who can reach the port could change training episodes. Pass --token (or ATLAS_GYM_TOKEN), or listen on 127.0.0.1.",
      ),
    );
    for (const host of ["::", "0", "", "10.0.0.5"])
      for (const token of [undefined, null, "", " ", "\t\n"])
        expect(() => refuseOpenListen({ host, token }), `${JSON.stringify(host)} ${token}`).toThrow(
          UsageError,
        );
    expect(() => refuseOpenListen({ host: "", token: null })).toThrow(
      /refusing to listen on "" without a token/,
    );
    expect(() =>
      refuseOpenListen({ host: "::", token: null, exposes: "read runs", tokenFlag: "--token (or X)" }),
    ).toThrow(
      "refusing to listen on :: without a token: anyone who can reach the port could read runs. Pass --token (or X), or listen on 127.0.0.1.",
    );
    expect(() => refuseOpenListen({ host: "0.0.0.0", token: "T" })).not.toThrow();
    expect(() => refuseOpenListen({ host: "127.0.0.1", token: null })).not.toThrow();
  });
});
