/**
 * A session's own API token: what an agent's stack (jira.js, confluence.js, pycontribs jira, an HTTP
 * tool) authenticates with on that session's site, instead of the server's token (`serve --token`), which
 * also unlocks the trainer's controls `/v1/...` (whose trace holds the task's expectation, the answer
 * key). It is derived from the server's token and the session id (HMAC-SHA256, base64url, 32 characters),
 * so it needs no storage and is the same after a restart from the journal; knowing one session's token
 * tells nothing of the server's token or of another session's. Where it is accepted is decided in
 * src/http/authorize.ts (only within the session's scope, see src/server/session-scope.ts).
 */
import { createHmac } from "node:crypto";

/** Characters of a session API token (192 bits). */
export const SESSION_TOKEN_LENGTH = 32;

/** The API token of session `sessionId` on a server whose token is `token`. */
export function sessionApiToken(token: string, sessionId: string): string {
  return createHmac("sha256", token)
    .update(`session-api-token:${sessionId}`)
    .digest("base64url")
    .slice(0, SESSION_TOKEN_LENGTH);
}
