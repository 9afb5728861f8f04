/**
 * Presentation: another API surface's view of one operation (Jira REST v2 for a v3 operation,
 * Confluence v1 content for a v2 page operation). It has its own method, path, operationId and error
 * dialect as in that surface's published document, translates the request into the operation's input
 * and the operation's answer into its own shape; the operation, its handler and its state are the same,
 * so traces and rewards see the operation whatever surface was used.
 */
import { ApiError } from "./api-error.ts";
import type { ApiFamily, HttpMethod, Operation, OperationContext } from "./define-operation.ts";
import { executeOperation, type OperationInput, type OperationResult } from "./execute.ts";
import type { Site } from "./site.ts";

/** What a route answers as: an operation, or a presentation of one. */
export interface Endpoint {
  operationId: string;
  api: ApiFamily;
  method: HttpMethod;
  path: string;
}

export interface Presentation extends Endpoint {
  /** The operation this endpoint performs (recorded on traces under its operationId). */
  operation: Operation;
  /** The operation's input for a request on this surface; throws an ApiError in this surface's dialect. */
  request(input: OperationInput, site: Site, ctx: OperationContext): OperationInput;
  /** This surface's answer for the operation's result (`site` is the state after the operation). */
  response(
    result: OperationResult,
    site: Site,
    ctx: OperationContext,
    input: OperationInput,
  ): OperationResult;
}

export interface PresentedResult {
  /** The operation's input, or null when the request could not be translated. */
  input: OperationInput | null;
  /** The operation's own answer (what traces record). */
  result: OperationResult;
  /** What this surface answers. */
  answer: OperationResult;
}

/**
 * Runs a request on a presentation: translate, execute the operation, translate the answer back. A write
 * whose answer cannot be translated is undone before the error goes on, so a failed request changes
 * nothing on this surface either (the operation itself is atomic, see execute.ts).
 */
export function executePresentation(
  site: Site,
  presentation: Presentation,
  raw: OperationInput,
  ctx: OperationContext,
): PresentedResult {
  let input: OperationInput;
  try {
    input = presentation.request(raw, site, ctx);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const result = { ok: false, status: error.status, body: error.body, headers: error.headers };
    return { input: null, result, answer: result };
  }
  const before = presentation.operation.effect === "write" ? site.fork() : null;
  const result = executeOperation(site, presentation.operation, input, ctx);
  try {
    return { input, result, answer: presentation.response(result, site, ctx, raw) };
  } catch (error) {
    if (before) site.restore(before);
    throw error;
  }
}
