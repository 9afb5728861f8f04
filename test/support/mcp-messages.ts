/** Test helper: raw MCP JSON-RPC messages, for tests that speak the protocol without the SDK's client. */

/** An `initialize` request (id `id`) from a client named `client`. */
export function initializeRequest(id: number | string = 1, client = "test") {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: client, version: "1" } },
  };
}
