/**
 * MCP over stdio, for `atlas-gym mcp`: either a server for a local binding, or a bridge that relays
 * every JSON-RPC message between stdio and the `/mcp` endpoint of a running `atlas-gym serve` (how a
 * stdio client reaches an env-server session, whose episode lives in that process). Both end when the
 * client closes stdin (or a line overflows the transport's buffer: exit code 1). stdout carries only the
 * protocol.
 */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createMcpServer } from "./create-mcp-server.ts";
import { answerInvalidParams } from "./invalid-params.ts";
import type { McpBinding } from "./mcp-binding.ts";

/** Serves a binding on this process's stdin/stdout until stdin closes. */
export async function serveStdio(binding: McpBinding): Promise<void> {
  const server = createMcpServer(binding);
  const transport = new StdioServerTransport();
  const closed = untilClosed(transport);
  await server.connect(transport);
  answerInvalidParams(transport);
  await closed;
  await server.close();
}

/**
 * Relays stdio to `url` (a `/mcp` endpoint with its query) until stdin closes. Messages sent before the
 * `initialize` request has its answer wait for it (the server opens the MCP session there, and a request
 * without its id would be refused), so a client may write them all at once; once stdin ends, the requests
 * still on their way get their answers (up to a minute) before the bridge closes the session.
 */
export async function bridgeStdio(url: URL, token?: string): Promise<void> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const remote = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const local = new StdioServerTransport();
  const waiting = new Set<string | number>(); // ids of the requests relayed and not yet answered
  let answered: () => void = () => undefined;
  let initialized: Promise<unknown> = Promise.resolve();
  const relay = (message: JSONRPCMessage) =>
    remote.send(message).catch((error: Error) => {
      // A request the server could not answer still gets an answer, so the client does not wait forever.
      if ("method" in message && "id" in message)
        settle({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: -32000, message: `atlas-gym serve at ${url.origin}: ${error.message}` },
        });
    });
  const settle = (message: JSONRPCMessage) => {
    const id = "id" in message ? message.id : undefined;
    if (("result" in message || "error" in message) && id !== undefined && id !== null) waiting.delete(id);
    void local.send(message);
    if (waiting.size === 0) answered();
  };
  local.onmessage = (message) => {
    if ("method" in message && "id" in message) waiting.add(message.id);
    // A request the client cancels is never answered (the SDK drops its result): wait no more for it.
    if ("method" in message && message.method === "notifications/cancelled" && !("id" in message)) {
      const cancelled = (message.params as { requestId?: string | number } | undefined)?.requestId;
      if (cancelled !== undefined) waiting.delete(cancelled);
    }
    const isInitialize = "method" in message && message.method === "initialize";
    const sent = isInitialize ? relay(message) : initialized.then(() => relay(message));
    if (isInitialize) initialized = sent;
  };
  remote.onmessage = (message: JSONRPCMessage) => {
    const result = "result" in message ? (message.result as { protocolVersion?: unknown }) : undefined;
    if (typeof result?.protocolVersion === "string") remote.setProtocolVersion(result.protocolVersion);
    settle(message);
  };
  remote.onerror = (error) => console.error(`atlas-gym mcp: ${error.message}`);
  const closed = untilClosed(local);
  await remote.start();
  await local.start();
  await closed;
  if (waiting.size > 0)
    await new Promise<void>((resolve) => {
      answered = resolve;
      setTimeout(resolve, 60_000).unref();
    });
  await remote.terminateSession().catch(() => undefined);
  await Promise.all([remote.close(), local.close()]);
}

/**
 * Settles when stdin ends or the transport closes itself: on a line past its read buffer (10 MiB) it
 * stops reading, and the process then ends with the reason on stderr and exit code 1 instead of dying
 * silently on a promise that never settles. A line that is not JSON, or not a JSON-RPC message, gets a
 * JSON-RPC error (id null: none can be read from it) instead of no answer, and the reason on stderr.
 */
function untilClosed(transport: StdioServerTransport): Promise<void> {
  return new Promise((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
    transport.onclose = () => resolve();
    transport.onerror = (error) => {
      // The SDK's reason for a line that is no JSON-RPC message is a long schema dump: one line says it.
      const invalid = error.name === "ZodError" || error.message.trimStart().startsWith("[");
      console.error(
        `atlas-gym mcp: ${invalid ? "a line that is not a JSON-RPC message was refused" : error.message}`,
      );
      if (/exceeded maximum size/.test(error.message)) {
        process.exitCode = 1;
        return;
      }
      const parse = error instanceof SyntaxError;
      void transport.send({
        jsonrpc: "2.0",
        id: null,
        error: { code: parse ? -32700 : -32600, message: parse ? "Parse error" : "Invalid Request" },
      } as unknown as JSONRPCMessage);
    };
  });
}
