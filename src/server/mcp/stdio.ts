/**
 * MCP over stdio, for `atlas-gym mcp`: either a server for a local binding, or a bridge that relays
 * every JSON-RPC message between stdio and the `/mcp` endpoint of a running `atlas-gym serve` (how a
 * stdio client reaches an env-server session, whose episode lives in that process). Both end when the
 * client closes stdin. stdout carries only the protocol.
 */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createMcpServer } from "./create-mcp-server.ts";
import type { McpBinding } from "./mcp-binding.ts";

/** Serves a binding on this process's stdin/stdout until stdin closes. */
export async function serveStdio(binding: McpBinding): Promise<void> {
  const server = createMcpServer(binding);
  const transport = new StdioServerTransport();
  const closed = untilStdinEnds();
  await server.connect(transport);
  await closed;
  await server.close();
}

/** Relays stdio to `url` (a `/mcp` endpoint with its query) until stdin closes. */
export async function bridgeStdio(url: URL, token?: string): Promise<void> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const remote = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const local = new StdioServerTransport();
  local.onmessage = (message) => {
    remote.send(message).catch((error: Error) => {
      // A request the server could not answer still gets an answer, so the client does not wait forever.
      if ("method" in message && "id" in message)
        void local.send({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: -32000, message: `atlas-gym serve at ${url.origin}: ${error.message}` },
        });
    });
  };
  remote.onmessage = (message: JSONRPCMessage) => {
    const result = "result" in message ? (message.result as { protocolVersion?: unknown }) : undefined;
    if (typeof result?.protocolVersion === "string") remote.setProtocolVersion(result.protocolVersion);
    void local.send(message);
  };
  remote.onerror = (error) => console.error(`atlas-gym mcp: ${error.message}`);
  const closed = untilStdinEnds();
  await remote.start();
  await local.start();
  await closed;
  await remote.terminateSession().catch(() => undefined);
  await Promise.all([remote.close(), local.close()]);
}

function untilStdinEnds(): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
}
