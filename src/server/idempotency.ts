/**
 * Idempotency keys (`Idempotency-Key: <any string up to 255 characters>`) on the writes of an env-server
 * session: REST writes on its site (`/s/<session id>/...`), tool calls and opening a session. The first
 * request with a key runs and its answer is kept (and journaled, so a restarted server still knows it);
 * a retry with the same key and the same request gets that answer again without applying anything, marked
 * `Idempotent-Replayed: true`; the same key on a different request is refused (422) and changes nothing.
 * Requests without a key behave as before. Keys are scoped to their session (opening keys to the server).
 */
import { createHash } from "node:crypto";
import { EnvRequestError } from "./errors.ts";

export const IDEMPOTENCY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "idempotent-replayed";

/** A key and the fingerprint of the request that carries it. */
export interface KeyedRequest {
  key: string;
  fingerprint: string;
  /** The request as its fingerprint reads it (a request's own, not one rebuilt from the journal). */
  readonly text?: string;
}

/** An HTTP answer as kept for a retry (body as sent, null for none). */
export interface KeptReply {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** The key a request carries, or null; an unusable key is a 400 (never silently ignored). */
export function keyOf(headers: Headers): string | null {
  const key = headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  if (key.length === 0 || key.length > 255 || !/^[\x21-\x7e]+$/.test(key))
    throw new EnvRequestError(
      400,
      "invalid_idempotency_key",
      "Idempotency-Key must be 1 to 255 visible ASCII characters.",
    );
  return key;
}

/** A short digest of what a request asks for (its parts' JSON): the same key must come with the same request. */
function digestOf(text: string): string {
  return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}

/**
 * `key` with the fingerprint of the request made of `parts`, taken as they are now (a tool may normalise
 * its arguments later) but digested only when read: a retry's comparison or the journal. A first call
 * that is not journaled never needs the digest (~1.5 µs of sha256 on every keyed call otherwise).
 */
export function keyed(key: string, ...parts: unknown[]): KeyedRequest {
  return keyedText(key, JSON.stringify(parts));
}

/** `key` with the fingerprint of a request already written as text (see keyed). */
export function keyedText(key: string, text: string): KeyedRequest {
  return new LazilyDigested(key, text);
}

/** A class, not an object literal with a getter: this is made on every keyed call. */
class LazilyDigested implements KeyedRequest {
  private digest: string | undefined;
  constructor(
    readonly key: string,
    readonly text: string,
  ) {}
  get fingerprint(): string {
    this.digest ??= digestOf(this.text);
    return this.digest;
  }
}

/** Thrown when a key comes back with a different request. */
export class IdempotencyConflictError extends EnvRequestError {
  override name = "IdempotencyConflictError";
  constructor(key: string) {
    super(
      422,
      "idempotency_key_reused",
      `Idempotency-Key ${key} was already used for a different request: send a new key for a new request.`,
    );
  }
}

/** The answers kept by key in one scope (a session, or the server for openings). */
export class KeptAnswers<T> {
  // The request itself is kept, so its fingerprint is digested only if the key comes back (see `keyed`).
  private readonly kept = new Map<string, { request: KeyedRequest; answer: T }>();

  /** The answer kept for this keyed request; throws IdempotencyConflictError for a reused key. */
  find(request: KeyedRequest): T | undefined {
    const entry = this.kept.get(request.key);
    if (entry && entry.request.fingerprint !== request.fingerprint)
      throw new IdempotencyConflictError(request.key);
    return entry?.answer;
  }

  keep(request: KeyedRequest, answer: T): void {
    this.kept.set(request.key, { request, answer });
  }

  forget(key: string): void {
    this.kept.delete(key);
  }

  get size(): number {
    return this.kept.size;
  }
}

/** The Response of a kept REST answer, marked as replayed. */
export function replayed(reply: KeptReply): Response {
  return new Response(reply.body, {
    status: reply.status,
    headers: { ...reply.headers, [REPLAYED_HEADER]: "true" },
  });
}
