/**
 * executeOperation: the one path every surface takes into the site (REST route, agent tool, MCP call,
 * env-server call). It validates the input against the operation's schemas, answers bad input with the
 * vendor's 400 and no change, runs writes atomically, and turns ApiErrors into vendor-shaped answers.
 */
import type { z } from "zod";
import { ApiError, dialectError, jiraError } from "./api-error.ts";
import { WRITE_TICK_MS } from "./clock.ts";
import { type Operation, type OperationContext, Reply } from "./define-operation.ts";
import { MISS, quickParser } from "./quick-parse.ts";
import type { Site } from "./site.ts";

export interface OperationResult {
  ok: boolean;
  status: number;
  /** The JSON body, or undefined for an empty answer (204, and 201 without body). */
  body: unknown;
  headers: Record<string, string>;
}

export interface OperationInput {
  params: Record<string, unknown>;
  body?: unknown;
}

export function executeOperation(
  site: Site,
  op: Operation,
  input: OperationInput,
  ctx: OperationContext,
): OperationResult {
  try {
    const params = parseOrThrow(op, op.params, input.params, "params");
    const body = op.body ? parseOrThrow(op, op.body, input.body, "body") : undefined;
    // No named closure per call here: tsx (keepNames) wraps each one in a `__name` call.
    const answer =
      op.effect === "write"
        ? site.transact((draft) => {
            draft.tick(WRITE_TICK_MS);
            return op.handler(draft, { params, body }, ctx);
          })
        : op.handler(site, { params, body }, ctx);
    if (answer instanceof Reply) return { ok: true, status: answer.status, body: answer.body, headers: {} };
    return { ok: true, status: op.status, body: answer, headers: {} };
  } catch (error) {
    if (error instanceof ApiError)
      return { ok: false, status: error.status, body: error.body, headers: error.headers };
    throw error;
  }
}

/**
 * Validates one part of the input; a failure becomes the dialect's 400 naming each bad field. Inputs the
 * schema's compiled fast path is sure of skip zod (quick-parse.ts); everything else, every error included,
 * goes through zod.
 */
export function parseOrThrow(
  op: Operation,
  schema: z.ZodType,
  value: unknown,
  part: "params" | "body",
): unknown {
  const quick = quickParser(schema);
  if (quick) {
    const sure = quick(value);
    if (sure !== MISS) return sure;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  if (op.api === "jira") {
    const errors: Record<string, string> = {};
    const messages: string[] = [];
    for (const issue of issues) {
      const path = issue.path.map(String);
      const field = path[0] === "fields" || path[0] === "update" ? path.slice(1).join(".") : path.join(".");
      if (part === "body" && field) errors[field] ??= describe(issue);
      else
        messages.push(
          field
            ? `${part === "params" ? "Parameter" : "Field"} '${field}': ${describe(issue)}`
            : describe(issue),
        );
    }
    throw jiraError(400, messages, errors);
  }
  const first = issues[0]!;
  const where = first.path.length > 0 ? `'${first.path.join(".")}' ` : "";
  throw dialectError(
    op.api,
    400,
    `Invalid ${part === "params" ? "parameter" : "request body"}: ${where}${describe(first)}`,
  );
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && issue.message.includes("received undefined"))
    return issue.path.length > 0
      ? `'${issue.path[issue.path.length - 1]?.toString()}' is required.`
      : // No body at all, in the words of the JSON reader behind Atlassian's REST APIs (Jackson).
        "No content to map to Object due to end of input";
  if (issue.code === "invalid_type" && issue.message.includes("received NaN")) return "must be a number";
  if (issue.code === "unrecognized_keys")
    return issue.keys.map((key) => `Unrecognized field "${key}", not marked as ignorable`).join("; ");
  return issue.message;
}
