/**
 * A session's site over REST: `/s/<session id>/rest/api/3/...` and `/s/<session id>/wiki/...` reach the
 * episode's own site through the ordinary REST facade. Requests on one session run under its call lock,
 * keep it alive, and land on its trace (via the facade's observe hook), so `/score` counts them whatever
 * surface the agent used. A session id that is gone is answered 404 in the vendor's error shape instead
 * of silently getting a fresh site. A write carrying an `Idempotency-Key` is applied once: a retry with
 * the same key and request gets the first answer again (see idempotency.ts).
 */

import { getPath } from "hono/utils/url";
import { decodeBasic } from "../http/basic-auth.ts";
import type { ObservedRequest } from "../http/create-rest-app.ts";
import { vendorErrorResponse } from "../http/dialect.ts";
import { keepBodyText, readBodyText } from "../http/read-body.ts";
import { queryOf } from "../http/url-parts.ts";
import type { Operation } from "../sandbox/define-operation.ts";
import type { OperationResult } from "../sandbox/execute.ts";
import { EnvRequestError, SessionNotFoundError } from "./errors.ts";
import { IdempotencyConflictError, type KeyedRequest, keyed, keyOf, replayed } from "./idempotency.ts";
import { recordRestOperation } from "./session-calls.ts";
import { SESSION_PREFIX, type Session, type SessionStore } from "./sessions.ts";

type Fetch = (request: Request) => Response | Promise<Response>;

const SESSION_PATH = new RegExp(`^/s/(${SESSION_PREFIX}[^/]+)(/.*)?$`);

/** Wraps the REST facade's fetch so that requests on session sites go through their session. */
export function guardSessionSites(store: SessionStore, restFetch: Fetch): Fetch {
  return async (request) => {
    // The path as the router decodes it: `/s/ses%2D…` is the same session as `/s/ses-…`.
    const path = getPath(request);
    const match = path.startsWith("/s/") ? SESSION_PATH.exec(path) : null;
    if (!match) return restFetch(request);
    const id = match[1]!;
    const session = store.find(id);
    if (!session) return goneSession(id, path);
    try {
      const keyed = await keyedRequest(request, path);
      return await session.run(async () => {
        if (!keyed) return journaledAnswer(session, await restFetch(request), path);
        const kept = session.kept.find(keyed);
        if (kept && "rest" in kept) return replayed(kept.rest);
        if (kept) throw new IdempotencyConflictError(keyed.key);
        session.restKey = keyed;
        try {
          return journaledAnswer(session, await restFetch(request), path);
        } finally {
          session.restKey = null;
        }
      });
    } catch (error) {
      if (error instanceof SessionNotFoundError) return goneSession(id, path);
      if (error instanceof EnvRequestError) return vendorErrorResponse(path, error.status, error.message);
      throw error;
    }
  };
}

/**
 * The idempotency key of a write and its request's fingerprint: method, path (as the router decodes it,
 * so two spellings of one path are one request) and query, the acting user (Basic auth's email picks it:
 * another user's same request is another write), body. A write's body is read here, before the session's
 * lock is taken, keyed or not: a client slow to send it holds up no other call on the session.
 */
async function keyedRequest(request: Request, path: string): Promise<KeyedRequest | null> {
  if (request.method === "GET" || request.method === "HEAD") return null;
  // Read once here and kept for the facade, which reads the same text (or the same refusal) after.
  const body = await readBodyText(request);
  keepBodyText(request, body);
  const key = keyOf(request.headers);
  if (key === null || body === null) return null; // too large: the facade refuses it (413), nothing kept
  const target = path + queryOf(request.url);
  const user = decodeBasic(request.headers.get("authorization"))?.email ?? null;
  return keyed(key, request.method, target, user, body);
}

/** The REST facade's observe hook: records each answered operation on the owning session's trace. */
export function recordSessionCalls(store: SessionStore) {
  return (op: Operation, result: OperationResult, request: ObservedRequest): void => {
    if (!request.siteId?.startsWith(SESSION_PREFIX)) return;
    const session = store.find(request.siteId);
    if (session) recordRestOperation(session, op, request, result);
  };
}

function goneSession(id: string, path: string): Response {
  return vendorErrorResponse(path, 404, new SessionNotFoundError(id).message);
}

/**
 * The facade's answer, unless the operation's journal line could not be written: the operation was
 * undone (sessions.ts), and the client is told so (503 in the vendor's shape) instead of the facade's
 * own answer to the thrown error.
 */
function journaledAnswer(session: Session, answer: Response, path: string): Response {
  const failed = session.journalError;
  return failed === null ? answer : vendorErrorResponse(path, failed.status, failed.message, failed.headers);
}
