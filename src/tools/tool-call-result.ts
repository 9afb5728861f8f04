/**
 * The record of one tool call on a trace (ToolCallResult) and the one builder for it: every surface —
 * an agent tool call, an operation the REST facade ran for a session, a call past the budget — records
 * its calls through `toolCallResult`, so what the agent sees for an answer is worded in one place.
 */
import type { Operation } from "../sandbox/define-operation.ts";

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

/** How a call ended: an answer with an HTTP status (a result or a vendor error), or no answer at all. */
export type CallOutcome =
  | {
      status: number;
      ok: boolean;
      body?: unknown;
      /** Default: null when ok, else "api_error". */
      errorType?: ToolErrorType;
      /** The operation input the call ran with (default: none). */
      input?: { params: Record<string, unknown>; body: unknown } | null;
    }
  | { status: null; errorType: ToolErrorType; message: string };

/**
 * Builds the trace record of a call to `operation` (null when the tool is unknown or none ran). Each
 * record is one object literal: spreading a shared base into it cost several times the JSON of a small
 * answer (see docs/benchmarks.md, env server).
 */
export function toolCallResult(
  call: ToolCallRequest,
  operation: Pick<Operation, "operationId" | "effect"> | null | undefined,
  outcome: CallOutcome,
): ToolCallResult {
  const operationId = operation?.operationId ?? null;
  const effect = operation?.effect ?? null;
  if (outcome.status === null)
    return {
      name: call.name,
      arguments: call.arguments,
      operationId,
      effect,
      input: null,
      status: null,
      ok: false,
      errorType: outcome.errorType,
      body: null,
      observation: outcome.message,
    };
  const { status, ok, body } = outcome;
  const text = body === undefined ? "" : JSON.stringify(body);
  return {
    name: call.name,
    arguments: call.arguments,
    operationId,
    effect,
    input: outcome.input ?? null,
    status,
    ok,
    errorType: outcome.errorType ?? (ok ? null : "api_error"),
    body: body ?? null,
    observation: ok ? text || `Done (HTTP ${status}, no content).` : `Error ${status}: ${text}`,
  };
}
