/**
 * Retries for model requests: 429 (honouring Retry-After), 408/409, 5xx, timeouts and dropped
 * connections are retried with exponential backoff; anything else, and the last failure, becomes a
 * PolicyError for the trace. The sleep is injectable so tests never wait. Errors that are not the
 * client's request errors are bugs and are rethrown.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { withChildSignal } from "../child-signal.ts";
import type { ProviderErrorType } from "../provider-error-types.ts";
import type { PolicyError } from "../types.ts";

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
  /** Retries after the first attempt (default 4). */
  retries?: number;
  sleep?: Sleep;
  /** First backoff (default 500 ms), doubled each retry up to maxDelayMs (default 8 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Longest Retry-After honoured (default 60 s). */
  maxRetryAfterMs?: number;
  /** Clock for HTTP-date Retry-After values. */
  now?: () => number;
  signal?: AbortSignal;
}

export type Attempted<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; error: PolicyError; attempts: number };

export const DEFAULT_RETRIES = 4;

/**
 * Runs `attempt` until it succeeds or fails for good. Each attempt gets its own abort signal that
 * follows `options.signal` (see child-signal.ts), so long runs do not pile listeners on the caller's.
 */
export async function withRetries<T>(
  attempt: (signal: AbortSignal) => Promise<T>,
  options: RetryOptions = {},
): Promise<Attempted<T>> {
  const retries = options.retries ?? DEFAULT_RETRIES;
  const sleep = options.sleep ?? defaultSleep;
  for (let n = 0; ; n++) {
    try {
      return { ok: true, value: await withChildSignal(options.signal, attempt), attempts: n + 1 };
    } catch (thrown) {
      const failure = classify(thrown, options.now ?? Date.now);
      if (!failure.retryable || n >= retries || options.signal?.aborted)
        return { ok: false, error: failure.error, attempts: n + 1 };
      const backoff = Math.min((options.baseDelayMs ?? 500) * 2 ** n, options.maxDelayMs ?? 8_000);
      const wait =
        failure.retryAfterMs === undefined
          ? backoff
          : Math.min(failure.retryAfterMs, options.maxRetryAfterMs ?? 60_000);
      try {
        await sleep(wait, options.signal);
      } catch {
        return {
          ok: false,
          error: { type: "aborted", message: "The run was aborted while waiting to retry." },
          attempts: n + 1,
        };
      }
    }
  }
}

interface Failure {
  error: PolicyError;
  retryable: boolean;
  retryAfterMs?: number;
}

/** What a request error means for the trace, and whether to try again. */
export function classify(thrown: unknown, now: () => number = Date.now): Failure {
  if (thrown instanceof APIUserAbortError)
    return { error: { type: "aborted", message: "The request was aborted." }, retryable: false };
  if (thrown instanceof APIConnectionTimeoutError)
    return { error: { type: "timeout", message: "The request timed out." }, retryable: true };
  if (thrown instanceof APIConnectionError) {
    const cause = (thrown as { cause?: { message?: string; code?: string } }).cause;
    const detail = cause?.code ?? cause?.message;
    return {
      error: { type: "connection", message: `Connection error${detail ? ` (${detail})` : ""}.` },
      retryable: true,
    };
  }
  if (thrown instanceof APIError && thrown.status !== undefined) {
    const status = thrown.status;
    const error = { type: typeFor(status), message: thrown.message, status };
    const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
    const retryAfterMs = retryAfter(thrown.headers, now);
    return { error, retryable, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
  }
  if (thrown instanceof APIError || thrown instanceof SyntaxError)
    return { error: { type: "invalid_response", message: thrown.message }, retryable: false };
  throw thrown;
}

function typeFor(status: number): ProviderErrorType {
  if (status === 429) return "rate_limited";
  if (status === 401 || status === 403) return "auth";
  if (status === 404) return "not_found";
  if (status === 408) return "timeout";
  if (status >= 500) return "server_error";
  return "bad_request";
}

/** Retry-After in ms: `retry-after-ms`, or `retry-after` as seconds or an HTTP date. */
export function retryAfter(headers: Headers | undefined, now: () => number = Date.now): number | undefined {
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now());
}

export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
