// Retry-After parsing and the retry loop's limits, without any waiting (the sleep is injected).
import { APIConnectionError, APIError } from "openai";
import { describe, expect, it } from "vitest";
import { retryAfter, withRetries } from "./retry.ts";

const now = () => Date.parse("2026-01-01T00:00:00Z");
const error = (status: number, headers: Record<string, string> = {}) =>
  APIError.generate(status, { message: `HTTP ${status}` }, undefined, new Headers(headers));

describe("retryAfter", () => {
  it("reads retry-after-ms, seconds and HTTP dates", () => {
    expect(retryAfter(new Headers({ "retry-after-ms": "250" }), now)).toBe(250);
    expect(retryAfter(new Headers({ "retry-after": "1.5" }), now)).toBe(1500);
    expect(retryAfter(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }), now)).toBe(3000);
    expect(retryAfter(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfter(undefined, now)).toBeUndefined();
  });
});

describe("withRetries", () => {
  it("caps Retry-After and stops after the allowed retries", async () => {
    const sleeps: number[] = [];
    const result = await withRetries(() => Promise.reject(error(429, { "retry-after": "3600" })), {
      retries: 2,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    expect(sleeps).toEqual([60_000, 60_000]);
    expect(result).toMatchObject({ ok: false, attempts: 3, error: { type: "rate_limited", status: 429 } });
  });
  it("caps exponential backoff", async () => {
    const sleeps: number[] = [];
    await withRetries(() => Promise.reject(new APIConnectionError({ message: "reset" })), {
      retries: 6,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    expect(sleeps).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });
  it("stops waiting when the run is aborted", async () => {
    const controller = new AbortController();
    const result = await withRetries(() => Promise.reject(error(503)), {
      signal: controller.signal,
      sleep: async () => {
        controller.abort();
        throw new Error("aborted");
      },
    });
    expect(result).toMatchObject({ ok: false, attempts: 1, error: { type: "aborted" } });
  });
  it("rethrows errors that are not request failures (bugs)", async () => {
    await expect(withRetries(() => Promise.reject(new TypeError("x is undefined")))).rejects.toThrow(
      TypeError,
    );
  });
});
