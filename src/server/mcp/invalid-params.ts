/**
 * Invalid params answered as JSON-RPC says: a request of a method MCP defines whose params do not fit that
 * method's schema (a `tools/call` whose `arguments` is a string, a `resources/read` without `uri`) gets
 * error -32602 "Invalid params" naming what is wrong, and reaches nothing. Left to the SDK, its request
 * parsing throws a zod error that it answers as -32603 "Internal error" with the schema dump. Installed
 * on a transport after the server has connected to it (over HTTP and over stdio alike).
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ClientRequestSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

type Schema = (typeof ClientRequestSchema.options)[number];

/** The methods this server answers (createMcpServer: tools and resources); others stay -32601. */
const ANSWERED = new Set([
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

/** Each answered request method's schema, by method name. */
const SCHEMAS = new Map<string, Schema>(
  ClientRequestSchema.options
    .map((schema) => [schema.shape.method.value as string, schema] as const)
    .filter(([method]) => ANSWERED.has(method)),
);

/** Why a JSON-RPC request's params do not fit its method (a sentence), or null (fits, or not ours). */
export function invalidParams(message: JSONRPCMessage): string | null {
  if (!("method" in message) || !("id" in message)) return null; // a notification or a response
  const schema = SCHEMAS.get(message.method);
  if (schema === undefined) return null; // not one this server answers: the SDK says -32601 Method not found
  const parsed = schema.safeParse(message);
  if (parsed.success) return null;
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join(".") : "the request";
    return `${where}: ${issue.message}`;
  });
  return `Invalid params for ${message.method}: ${problems.join("; ")}`;
}

/** Makes `transport` answer a request with invalid params itself (-32602), passing everything else on. */
export function answerInvalidParams(transport: Transport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const why = invalidParams(message);
    if (why === null || !("id" in message)) return deliver?.(message, extra);
    // The answer can find no request to go with (a batch that repeats an id was answered already): the
    // transport says so by throwing, which must not end the process.
    transport
      .send(
        { jsonrpc: "2.0", id: message.id, error: { code: -32602, message: why } },
        { relatedRequestId: message.id },
      )
      .catch((error: Error) => transport.onerror?.(error));
  };
}
