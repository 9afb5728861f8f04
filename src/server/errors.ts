/**
 * Errors of the env server. Each maps to one HTTP status and a stable `code`, so the JSON error body a
 * client sees (`{error, code}`) is built in one place; tool-level failures are never errors here (they
 * are HTTP 200 answers with `ok:false`).
 */
import { AtlasGymError } from "../errors.ts";

/** A request the env server cannot act on: answered with `status` and `{error: message, code}`. */
export class EnvRequestError extends AtlasGymError {
  override name = "EnvRequestError";
  constructor(
    readonly status: 400 | 401 | 404 | 405 | 409 | 413 | 415 | 422 | 429 | 503,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** More fields of the error body, beside `error` and `code` (e.g. a sequence conflict's `last_seq`). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Thrown when a session id is not (or no longer) in the store. */
export class SessionNotFoundError extends EnvRequestError {
  override name = "SessionNotFoundError";
  constructor(readonly sessionId: string) {
    super(
      404,
      "session_not_found",
      `Session ${sessionId} not found: it may have been reaped after sitting idle past the session TTL, been deleted, or the server restarted. Open a new session.`,
    );
  }
}

/** Thrown when opening a session would exceed --max-sessions. */
export class SessionCapacityError extends EnvRequestError {
  override name = "SessionCapacityError";
  constructor(
    readonly maxSessions: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      429,
      "capacity",
      `Too many open sessions (the limit is ${maxSessions}, set by --max-sessions): close finished sessions with DELETE /v1/sessions/{id}, or retry after ${retryAfterSeconds} s when idle ones are reaped.`,
      { "retry-after": String(retryAfterSeconds) },
    );
  }
}

/**
 * Thrown when a call's journal line could not be written (a full disk, an I/O error): the call was
 * undone, so the session is as it was before it and the same call can be sent again.
 */
export class JournalWriteError extends EnvRequestError {
  override name = "JournalWriteError";
  constructor(sessionId: string, cause: unknown) {
    super(
      503,
      "journal_unavailable",
      `The journal of session ${sessionId} could not be written (${cause instanceof Error ? cause.message : String(cause)}); the call was undone and nothing changed: send it again.`,
      { "retry-after": "1" },
    );
  }
}
