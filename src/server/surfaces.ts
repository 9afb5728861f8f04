/**
 * The surfaces of `atlas-gym serve` and which one a raw request path (as sent) reaches: `/mcp` the MCP
 * endpoint, `/v1/...` and `/health` the env server, everything else the REST facade. One rule for the
 * dispatch (start-gym-server.ts), the auth gate's refusal shapes (auth-gate.ts), the scope of a session's
 * token (session-scope.ts) and the fleet router's own errors (fleet/fleet-proxy.ts).
 */

/** Which surface a path belongs to (each refuses in its own shape). */
export type Surface = "health" | "env" | "mcp" | "rest";

const ENV_PATH = /^\/(v1|health)(\/|$)/;

export function surfaceOf(path: string): Surface {
  if (path === "/health") return "health";
  if (path === "/mcp") return "mcp";
  return ENV_PATH.test(path) ? "env" : "rest";
}
