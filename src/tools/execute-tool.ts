/**
 * executeToolCall: runs one agent tool call on an episode's site through the same operation handler as
 * the REST route, and returns the observation the agent sees. Unknown tools, disallowed tools and
 * unparseable arguments are answered with an observation that says so — recorded, never thrown.
 */
import { ApiError } from "../sandbox/api-error.ts";
import type { OperationContext } from "../sandbox/define-operation.ts";
import { executeOperation } from "../sandbox/execute.ts";
import type { Site } from "../sandbox/site.ts";
import { InvalidToolArgumentsError, type Tool, type ToolInput } from "./define-tool.ts";

export type ToolErrorType = "unknown_tool" | "invalid_args" | "api_error" | "budget";

export interface ToolCallRequest {
  name: string;
  /** A JSON string (as models emit it) or an already parsed object. */
  arguments: unknown;
}

export interface ToolCallResult {
  name: string;
  /** The parsed arguments, or the raw text when they could not be parsed. */
  arguments: unknown;
  operationId: string | null;
  effect: "read" | "write" | null;
  /** The operation input the arguments mapped to (REST path/query params and body); null when none ran. */
  input: { params: Record<string, unknown>; body: unknown } | null;
  /** HTTP status the operation answered with (null when no operation ran). */
  status: number | null;
  ok: boolean;
  errorType: ToolErrorType | null;
  /** The response body (or error body) as data. */
  body: unknown;
  /** What the agent sees: the JSON body, or an error message. */
  observation: string;
}

export function executeToolCall(
  site: Site,
  tools: ReadonlyMap<string, Tool>,
  call: ToolCallRequest,
  ctx: OperationContext,
): ToolCallResult {
  const tool = tools.get(call.name);
  const base = {
    name: call.name,
    operationId: tool?.operation.operationId ?? null,
    effect: tool?.operation.effect ?? null,
  };
  if (!tool) {
    const observation = `Error: unknown tool '${call.name}'. Available tools: ${[...tools.keys()].join(", ")}.`;
    return {
      ...base,
      arguments: call.arguments,
      input: null,
      status: null,
      ok: false,
      errorType: "unknown_tool",
      body: null,
      observation,
    };
  }
  const parsed = parseArguments(call.arguments);
  if (!parsed.ok) {
    return {
      ...base,
      arguments: call.arguments,
      input: null,
      status: null,
      ok: false,
      errorType: "invalid_args",
      body: null,
      observation: `Error: ${parsed.message}`,
    };
  }
  let input: ToolInput;
  try {
    input = tool.toInput(parsed.value, site);
  } catch (error) {
    // Only alias tools throw here: their own argument check, or a failed name lookup (e.g. a space key).
    if (!(error instanceof ApiError)) throw error;
    return {
      ...base,
      arguments: parsed.value,
      input: null,
      status: error.status,
      ok: false,
      errorType: error instanceof InvalidToolArgumentsError ? "invalid_args" : "api_error",
      body: error.body,
      observation: `Error ${error.status}: ${JSON.stringify(error.body)}`,
    };
  }
  const result = executeOperation(site, tool.operation, input, ctx);
  const text = result.body === undefined ? "" : JSON.stringify(result.body);
  const observation = result.ok
    ? text || `Done (HTTP ${result.status}, no content).`
    : `Error ${result.status}: ${text}`;
  return {
    ...base,
    arguments: parsed.value,
    input,
    status: result.status,
    ok: result.ok,
    errorType: result.ok ? null : "api_error",
    body: result.body ?? null,
    observation,
  };
}

type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

function parseArguments(raw: unknown): Parsed {
  let value = raw;
  if (raw === undefined || raw === null || raw === "") value = {};
  else if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return { ok: false, message: `tool arguments are not valid JSON (${(error as Error).message}).` };
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, message: "tool arguments must be a JSON object." };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
