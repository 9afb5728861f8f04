/**
 * Test helper: the REST request an agent tool call corresponds to, to drive a site over REST exactly as
 * the tool call would.
 */
import type { Tool } from "../../src/tools/define-tool.ts";

/** The REST request (path with query, method, JSON body) that a tool call maps to. */
export function restRequestFor(
  tool: Tool,
  args: Record<string, unknown>,
): { method: string; path: string; body?: string } {
  const { params, body } = tool.toInput(args);
  const query = new URLSearchParams();
  const path = tool.operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String(params[name])),
  );
  for (const [name, value] of Object.entries(params)) {
    if (tool.operation.path.includes(`{${name}}`) || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) query.append(name, String(v));
  }
  const qs = query.toString();
  return {
    method: tool.operation.method,
    path: qs ? `${path}?${qs}` : path,
    body: tool.operation.body ? JSON.stringify(body) : undefined,
  };
}
