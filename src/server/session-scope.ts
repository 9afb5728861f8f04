/**
 * The env session a request of `atlas-gym serve` is confined to, if any: the one place where a session's
 * API token (src/http/session-token.ts) can be accepted (src/http/authorize.ts, asked by the gate,
 * auth-gate.ts). Read from the request as the server routes it, so the scope is the session the request
 * would reach and no other:
 * - `/mcp?session=<id>` (the MCP endpoint, `/mcp` exactly as the gym dispatches it, bound to a session by
 *   its `session` query parameter as src/server/mcp/http-handler.ts reads it);
 * - `/s/<id>/...` on the REST facade, with `<id>` an env session's id in the path as Hono decodes it
 *   (`getPath`, as session-sites.ts matches session sites), so `/s/ses%2D…` is the same session as
 *   `/s/ses-…`; `/v1/...`, `/health`, the root site and ad-hoc sites are in no session's scope.
 */
import { getPath } from "hono/utils/url";
import { pathOf } from "../http/url-parts.ts";
import { SESSION_PREFIX } from "./sessions.ts";
import { surfaceOf } from "./surfaces.ts";

const SESSION_SITE = new RegExp(`^/s/(${SESSION_PREFIX}[^/]+)(?:/|$)`);

/** The id of the env session whose scope `request` is in; null when it is in none. */
export function sessionScope(request: Request): string | null {
  const surface = surfaceOf(pathOf(request.url));
  if (surface === "mcp") return new URL(request.url).searchParams.get("session") || null;
  if (surface !== "rest") return null;
  const path = getPath(request);
  return path.startsWith("/s/") ? (SESSION_SITE.exec(path)?.[1] ?? null) : null;
}
