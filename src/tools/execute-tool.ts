/**
 * executeToolCall: runs one agent tool call on an episode's site through the same operation handler as
 * the REST route, and returns the observation the agent sees. Unknown tools, disallowed tools and
 * unparseable arguments are answered with an observation that says so — recorded, never thrown.
 */
import { ApiError } from "../sandbox/api-error.ts";
import type { OperationContext } from "../sandbox/define-operation.ts";
import { executeOperation } from "../sandbox/execute.ts";
import { MAX_JSON_DEPTH, parseJson, tooDeep } from "../sandbox/parse-json.ts";
import type { Site } from "../sandbox/site.ts";
import { InvalidToolArgumentsError, type Tool, type ToolInput } from "./define-tool.ts";
import { type ToolCallRequest, type ToolCallResult, toolCallResult } from "./tool-call-result.ts";

export function executeToolCall(
  site: Site,
  tools: ReadonlyMap<string, Tool>,
  call: ToolCallRequest,
  ctx: OperationContext,
): ToolCallResult {
  const tool = tools.get(call.name);
  if (!tool) {
    const message = `Error: unknown tool '${call.name}'. Available tools: ${[...tools.keys()].join(", ")}.`;
    return toolCallResult(call, null, { status: null, errorType: "unknown_tool", message });
  }
  const { operation } = tool;
  const parsed = parseArguments(call.arguments);
  if (!parsed.ok)
    return toolCallResult(call, operation, {
      status: null,
      errorType: "invalid_args",
      message: `Error: ${parsed.message}`,
    });
  const parsedCall = { name: call.name, arguments: parsed.value };
  let input: ToolInput;
  try {
    input = tool.toInput(parsed.value, site);
  } catch (error) {
    // Only alias tools throw here: their own argument check, or a failed name lookup (e.g. a space key).
    if (!(error instanceof ApiError)) throw error;
    return toolCallResult(parsedCall, operation, {
      status: error.status,
      ok: false,
      body: error.body,
      errorType: error instanceof InvalidToolArgumentsError ? "invalid_args" : "api_error",
    });
  }
  const result = executeOperation(site, operation, input, ctx);
  // The outcome's fields named, not spread from the result: this runs on every call.
  const { status, ok, body } = result;
  return toolCallResult(parsedCall, operation, { status, ok, body, input });
}

type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

function parseArguments(raw: unknown): Parsed {
  let value = raw;
  if (raw === undefined || raw === null || raw === "") value = {};
  else if (typeof raw === "string") {
    try {
      value = parseJson(raw);
    } catch (error) {
      return { ok: false, message: `tool arguments are not valid JSON (${(error as Error).message}).` };
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, message: "tool arguments must be a JSON object." };
  }
  // Text was measured as it was parsed; an object handed over parsed (MCP over stdio) is measured here.
  if (typeof raw === "object" && tooDeep(value))
    return { ok: false, message: `tool arguments nest deeper than ${MAX_JSON_DEPTH} levels.` };
  return { ok: true, value: value as Record<string, unknown> };
}
