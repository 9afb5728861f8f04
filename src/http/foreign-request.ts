/**
 * What a server without a token still refuses: requests a web page could have made. Such a server listens
 * on loopback only (listen-guard.ts), but a browser on the same machine can reach loopback, so without
 * this any page the user visits could
 *
 * - read and change state by DNS rebinding (its own name resolved to 127.0.0.1: the request then carries
 *   `Host: evil.example`), and
 * - change state by cross-site requests (a form or a `no-cors` fetch POSTs a body the server parses; the
 *   request carries the page's `Origin`).
 *
 * So a request is foreign when its Host names something other than this machine, or when it would change
 * state (any method but GET, HEAD and OPTIONS) and carries an Origin that is not this machine. Clients that
 * are not browsers (the Python client, jira.js, curl, agent stacks) send a loopback Host and no Origin.
 * A server with a token needs none of this: a page cannot know the token, and the view's cookie is
 * SameSite=Strict.
 */
import { isLoopback } from "./listen-guard.ts";
import { pathOf } from "./url-parts.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Why a request to a token-less server is refused (a sentence), or null when it may pass. */
export function foreignRequest(method: string, host: string | null, origin: string | null): string | null {
  if (host !== null && !isLoopback(hostnameOf(host)))
    return `this server has no token, so it answers only requests addressed to this machine (localhost, 127.0.0.1 or [::1]), not to ${JSON.stringify(host)}; start it with a token to serve other names`;
  if (origin !== null && !SAFE_METHODS.has(method.toUpperCase()) && !isLoopbackOrigin(origin))
    return `this server has no token, so it refuses changes sent by a web page from another site (Origin ${JSON.stringify(origin)}); start it with a token to accept them`;
  return null;
}

type Fetch = (request: Request) => Response | Promise<Response>;

/**
 * Wraps a token-less server's fetch handler: a foreign request is answered by `refuse` (with the path and
 * a message to show, in the surface's own shape, status 403) and reaches nothing behind it.
 */
export function refuseForeignRequests(
  fetch: Fetch,
  refuse: (path: string, message: string) => Response,
): Fetch {
  return (request) => {
    const why = foreignRequest(request.method, request.headers.get("host"), request.headers.get("origin"));
    return why === null ? fetch(request) : refuse(pathOf(request.url), `Forbidden: ${why}.`);
  };
}

/** The host name of a Host header (`[::1]:8000` → `[::1]`, `localhost:8000` → `localhost`). */
function hostnameOf(host: string): string {
  const trimmed = host.trim();
  if (trimmed.startsWith("[")) return trimmed.slice(0, trimmed.indexOf("]") + 1);
  const colon = trimmed.indexOf(":");
  return colon === -1 ? trimmed : trimmed.slice(0, colon);
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    return isLoopback(new URL(origin).hostname);
  } catch {
    return false; // "null" (a sandboxed frame, a file:// page) and anything unreadable
  }
}
