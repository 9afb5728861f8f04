/**
 * The headers the REST facade answers an operation's result with: the result's own (e.g. Retry-After)
 * and, when it has a body, the JSON content type Jira and Confluence send.
 */
import type { OperationResult } from "../sandbox/execute.ts";

export const JSON_CONTENT_TYPE = "application/json;charset=UTF-8";

/** A fresh headers object for `result`'s answer. */
export function answerHeaders(result: OperationResult): Record<string, string> {
  const headers: Record<string, string> = { ...result.headers };
  if (result.body !== undefined) headers["content-type"] = JSON_CONTENT_TYPE;
  return headers;
}
