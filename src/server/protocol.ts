/**
 * The env server's wire conventions: JSON request bodies checked against a zod schema (unknown keys,
 * wrong types, bad JSON and oversized bodies are 4xx with a message naming the problem), JSON error
 * bodies `{error, code}`, the optional token on /v1 routes, and the JSON shape of a score.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { z } from "zod";
import { authorize } from "../http/authorize.ts";
import { MAX_BODY_BYTES, readBodyText, TOO_LARGE_HEADERS } from "../http/read-body.ts";
import type { Score } from "../reward/score.ts";
import { parseJson } from "../sandbox/parse-json.ts";
import { MISS, quickParser } from "../sandbox/quick-parse.ts";
import { refusalMessage } from "./auth-gate.ts";
import { EnvRequestError } from "./errors.ts";

/**
 * Reads and validates a JSON body (through the schema's compiled fast path when it is sure, see
 * sandbox/quick-parse.ts, else zod, which words every error). An empty body reads as `{}` when `emptyAs`
 * is given (for routes whose fields are all optional); otherwise it is a 400.
 */
export async function readJson<S extends z.ZodType>(
  c: Context,
  schema: S,
  emptyAs?: z.input<S>,
): Promise<z.output<S>> {
  const text = await readBodyText(c.req.raw);
  if (text === null) throw tooLarge();
  let value: unknown;
  if (text.trim() === "") {
    if (emptyAs === undefined)
      throw new EnvRequestError(400, "invalid_json", "The request body is empty; send a JSON object.");
    value = emptyAs;
  } else {
    try {
      value = parseJson(text);
    } catch (error) {
      throw new EnvRequestError(
        400,
        "invalid_json",
        `The request body is not valid JSON: ${(error as Error).message}`,
      );
    }
  }
  const quick = quickParser(schema);
  if (quick) {
    const sure = quick(value);
    if (sure !== MISS) return sure as z.output<S>;
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`);
    throw new EnvRequestError(400, "invalid_request", `Invalid request body: ${problems.join("; ")}`);
  }
  return parsed.data;
}

/** A body over MAX_BODY_BYTES. */
export function tooLarge(): EnvRequestError {
  return new EnvRequestError(413, "body_too_large", `The request body exceeds ${MAX_BODY_BYTES} bytes.`, {
    ...TOO_LARGE_HEADERS,
  });
}

/** The JSON answer for an error thrown while handling a request. */
export function errorResponse(_c: Context, error: unknown): Response {
  return envErrorResponse(error);
}

/** The same answer without a Hono context (for the tool-call fast path, see tool-call-fast-path.ts). */
export function envErrorResponse(error: unknown): Response {
  if (error instanceof EnvRequestError)
    return jsonResponse(
      { error: error.message, code: error.code, ...error.details },
      error.status,
      error.headers,
    );
  // Anything else is a bug: answer 500 with its message and leave the stack on stderr.
  console.error(error);
  return jsonResponse(
    { error: `Internal error: ${(error as Error)?.message ?? String(error)}`, code: "internal" },
    500,
  );
}

/** A JSON answer with the headers Hono's c.json gives it. */
function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, "Content-Type": "application/json" },
  });
}

/**
 * Requires the server's token when one is set (the one auth decision, see src/http/authorize.ts), for
 * an env app served on its own; `atlas-gym serve` gates every route before this (server/auth-gate.ts).
 */
export function tokenAuth(token: string | null | undefined): MiddlewareHandler {
  return async (c, next) => {
    const decision = authorize(c.req.header("authorization"), { token });
    if (!decision.ok) {
      throw new EnvRequestError(401, "unauthorized", refusalMessage(decision.reason, decision.hint), {
        "www-authenticate": 'Bearer realm="atlas-gym", Basic realm="atlas-gym"',
      });
    }
    await next();
  };
}

/** A score in the env server's JSON shape (`/v1/sessions/{sid}/score`, the MCP score resource). */
export function scoreJson(score: Score) {
  return {
    reward: score.reward,
    passed: score.passed,
    mode: score.mode,
    paper_reward: score.paperReward,
    components: score.components,
    violations: score.violations,
    explanation: score.explanation,
  };
}
