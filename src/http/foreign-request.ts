/**
 * What a server without a token still refuses: requests a web page could have made. Such a server listens
 * on loopback only (listen-guard.ts), but a browser on the same machine can reach loopback, so without
 * this any page the user visits could
 *
 * - read and change state by DNS rebinding (its own name resolved to 127.0.0.1: the request then carries
 *   `Host: evil.example`),
 * - change state by cross-site requests: a form or a `no-cors` fetch POSTs a body the server parses (the
 *   request carries the page's `Origin`), and even a GET can change state here (a GET under `/s/<id>`
 *   creates that isolated site), which a browser marks `Sec-Fetch-Site: cross-site`.
 *
 * So a request is foreign when its Host names something other than this machine (or the host of the
 * server's own `--base-url`, which the user chose); when a browser says it comes from another origin
 * (`Sec-Fetch-Site: cross-site`, or `same-site`: another port of this machine) and it is not a page being
 * opened at the top level (`Sec-Fetch-Mode: navigate` and `Sec-Fetch-Dest: document`, with GET or HEAD; a
 * frame a page embeds is a navigation too, but needs no user); or when it would change state (any method
 * but GET, HEAD and OPTIONS) and carries an Origin that is not this server (loopback, same port). Clients
 * that are not browsers (the Python client, jira.js, curl, agent stacks) send a loopback Host and neither
 * header. A server with a token needs none of this (a page cannot know the token), but a browser that holds
 * the view's cookie, or Basic credentials it saved, still sends them from another origin: `crossOriginWrite`
 * is that check, and `pageSentBasicWrite` applies it to Basic auth.
 */
import { isLoopback } from "./listen-guard.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const NO_TOKEN = "this server has no token, so it";
const GIVE_A_TOKEN = "start it with a token to accept them";

/** A request header by lower-case name (null or undefined when absent). */
export type HeaderOf = (name: string) => string | null | undefined;

/**
 * Why a request to a token-less server is refused (a sentence), or null when it may pass. `publicUrl`: the
 * server's `--base-url`, whose host names this server too.
 */
export function foreignRequest(method: string, header: HeaderOf, publicUrl?: string | null): string | null {
  const host = header("host") ?? null;
  const publicHost = publicHostOf(publicUrl);
  if (host !== null && !isThisHost(host) && hostnameOf(host).toLowerCase() !== publicHost)
    return `${NO_TOKEN} answers only requests addressed to this machine (localhost, 127.0.0.1 or [::1]), not to ${JSON.stringify(host)}; start it with a token to serve other names`;
  const verb = method.toUpperCase();
  const site = header("sec-fetch-site");
  if ((site === "cross-site" || site === "same-site") && !openedAtTopLevel(verb, header))
    return `${NO_TOKEN} refuses requests a web page from another origin sends (Sec-Fetch-Site: ${site}); ${GIVE_A_TOKEN}`;
  const origin = header("origin") ?? null;
  if (origin !== null && !SAFE_METHODS.has(verb) && !isOwnOrigin(origin, host, publicHost))
    return `${NO_TOKEN} refuses changes sent by a web page from another site (Origin ${JSON.stringify(origin)}); ${GIVE_A_TOKEN}`;
  return null;
}

/**
 * Why a browser's write to a server with a token is refused (a sentence), or null: a write a page on
 * another origin sent (its Origin, or `Sec-Fetch-Site` other than same-origin). For requests a browser's
 * cookie carries; the token itself cannot be sent by such a page.
 */
export function crossOriginWrite(method: string, header: HeaderOf): string | null {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  const site = header("sec-fetch-site");
  const origin = header("origin") ?? null;
  const host = header("host") ?? null;
  const foreignOrigin = origin !== null && (host === null || !sameHostAndPort(origin, host));
  if ((site !== undefined && site !== null && site !== "same-origin" && site !== "none") || foreignOrigin)
    return `this server refuses changes sent by a web page from another origin (${origin === null ? `Sec-Fetch-Site: ${site}` : `Origin ${JSON.stringify(origin)}`})`;
  return null;
}

/**
 * Why a write on Basic auth is refused (a sentence), or null: a page on another origin sent it
 * (`crossOriginWrite`). A browser sends Basic credentials it has saved on its own (every 401 of these
 * servers asks for them), as it sends a cookie; a bearer token it never sends unasked.
 */
export function pageSentBasicWrite(method: string, header: HeaderOf): string | null {
  const authorization = header("authorization");
  return authorization && BASIC.test(authorization) ? crossOriginWrite(method, header) : null;
}

const BASIC = /^Basic\s/i;

/** A page the browser opens itself (a link followed, a URL typed), not a frame or a sub-resource. */
function openedAtTopLevel(verb: string, header: HeaderOf): boolean {
  return (
    (verb === "GET" || verb === "HEAD") &&
    header("sec-fetch-mode") === "navigate" &&
    header("sec-fetch-dest") === "document"
  );
}

/** Host names of the `--base-url`s seen (a server has one; this runs on every request). */
const PUBLIC_HOSTS = new Map<string, string | null>();

/** The lower-case host name of a server's `--base-url`, or null. */
function publicHostOf(publicUrl: string | null | undefined): string | null {
  if (!publicUrl) return null;
  let host = PUBLIC_HOSTS.get(publicUrl);
  if (host === undefined) {
    try {
      host = new URL(publicUrl).hostname.toLowerCase();
    } catch {
      host = null;
    }
    if (PUBLIC_HOSTS.size < 16) PUBLIC_HOSTS.set(publicUrl, host);
  }
  return host;
}

/**
 * Whether `origin` is the origin a request with this Host header was sent to (scheme aside). A Host
 * without a port is its scheme's default, which a proxy in front (TLS on 443) may have changed: the
 * origin must then name no port either.
 */
function sameHostAndPort(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    if (url.hostname !== hostnameOf(host).toLowerCase()) return false;
    return hasPort(host) ? originPort(url) === portOf(host) : url.port === "";
  } catch {
    return false;
  }
}

/** Whether a Host header names a port. */
function hasPort(host: string): boolean {
  const trimmed = host.trim();
  return (trimmed.startsWith("[") ? trimmed.slice(trimmed.indexOf("]") + 1) : trimmed).includes(":");
}

/** The port of an origin (its scheme's default when it names none). */
function originPort(url: URL): string {
  return url.port || (url.protocol === "https:" ? "443" : "80");
}

type Fetch = (request: Request) => Response | Promise<Response>;

/**
 * Wraps the fetch handler of a server with credentials: a write on Basic auth that a page on another
 * origin sent (`pageSentBasicWrite`) is answered by `refuse`, as `refuseForeignRequests` answers.
 */
export function refusePageSentBasicWrites(
  fetch: Fetch,
  refuse: (request: Request, message: string) => Response,
): Fetch {
  return refusing(fetch, pageSentBasicWrite, refuse);
}

/**
 * Wraps a token-less server's fetch handler: a foreign request is answered by `refuse` (with the request
 * and a message to show, in the surface's own shape, status 403) and reaches nothing behind it.
 */
export function refuseForeignRequests(
  fetch: Fetch,
  refuse: (request: Request, message: string) => Response,
  publicUrl?: string | null,
): Fetch {
  return refusing(fetch, (method, header) => foreignRequest(method, header, publicUrl), refuse);
}

/** `fetch` behind a check: a request `why` finds a reason against is answered by `refuse` instead. */
function refusing(
  fetch: Fetch,
  why: (method: string, header: HeaderOf) => string | null,
  refuse: (request: Request, message: string) => Response,
): Fetch {
  return (request) => {
    const reason = why(request.method, (name) => request.headers.get(name));
    return reason === null ? fetch(request) : refuse(request, `Forbidden: ${reason}.`);
  };
}

/** Host headers already found to name this machine (a server sees a handful; bounded all the same). */
const THIS_HOST = new Set<string>();

/** Whether a Host header names this machine (remembered: this runs on every request). */
function isThisHost(host: string): boolean {
  if (THIS_HOST.has(host)) return true;
  if (!isThisMachine(hostnameOf(host))) return false;
  if (THIS_HOST.size < 64) THIS_HOST.add(host);
  return true;
}

/** Loopback, or a `*.localhost` name (browsers resolve those to loopback themselves, never by DNS). */
function isThisMachine(hostname: string): boolean {
  return isLoopback(hostname) || hostname.toLowerCase().endsWith(".localhost");
}

/** The host name of a Host header (`[::1]:8000` → `[::1]`, `localhost:8000` → `localhost`). */
function hostnameOf(host: string): string {
  const trimmed = host.trim();
  if (trimmed.startsWith("[")) return trimmed.slice(0, trimmed.indexOf("]") + 1);
  const colon = trimmed.indexOf(":");
  return colon === -1 ? trimmed : trimmed.slice(0, colon);
}

/** The port of a Host header (80 when it names none: these servers speak plain HTTP). */
function portOf(host: string): string {
  const trimmed = host.trim();
  const after = trimmed.startsWith("[") ? trimmed.slice(trimmed.indexOf("]") + 1) : trimmed;
  const colon = after.lastIndexOf(":");
  return colon === -1 ? "80" : after.slice(colon + 1);
}

/**
 * Whether a page at `origin` is this server's own: a loopback name (or the `--base-url` host) on the port
 * the request was sent to (`localhost` and `127.0.0.1` name the same server). "null" (a sandboxed frame, a file:// page) and
 * anything unreadable are not.
 */
function isOwnOrigin(origin: string, host: string | null, publicHost: string | null): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (!isThisMachine(url.hostname) && url.hostname.toLowerCase() !== publicHost) return false;
  if (host === null) return true; // HTTP/1.0 without Host: no port to compare, and no browser sends it
  return originPort(url) === portOf(host);
}
