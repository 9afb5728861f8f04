/**
 * Which error dialect a request path speaks (Confluence v2 under /wiki/api/v2, v1 under /wiki/rest, else
 * Jira), and the vendor's error answer in it for the boundaries in front of the facade (auth, session
 * guards, token-less refusals).
 */
import { dialectError, type ErrorDialect } from "../sandbox/api-error.ts";

export function dialectForPath(path: string): ErrorDialect {
  const wiki = path.indexOf("/wiki/");
  if (wiki === -1) return "jira";
  return path.startsWith("/wiki/rest/", wiki) ? "confluence-v1" : "confluence";
}

/** The vendor's error answer for a request on `path`: its dialect's error body as JSON, with `headers`. */
export function vendorErrorResponse(
  path: string,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(dialectError(dialectForPath(path), status, message).body), {
    status,
    headers: { "content-type": "application/json;charset=UTF-8", ...headers },
  });
}
