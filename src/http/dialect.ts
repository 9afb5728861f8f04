/** Which error dialect a request path speaks: Confluence v2 under /wiki/api/v2, v1 under /wiki/rest, else Jira. */
import type { ErrorDialect } from "../sandbox/api-error.ts";

export function dialectForPath(path: string): ErrorDialect {
  const wiki = path.indexOf("/wiki/");
  if (wiki === -1) return "jira";
  return path.startsWith("/wiki/rest/", wiki) ? "confluence-v1" : "confluence";
}
