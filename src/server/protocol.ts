/**
 * The env server's wire conventions: JSON request bodies checked against a zod schema (unknown keys,
 * wrong types, bad JSON and oversized bodies are 4xx with a message naming the problem), JSON error
 * bodies `{error, code}`, and the optional bearer token on /v1 routes.
 */
import { timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { z } from "zod";
import { EnvRequestError } from "./errors.ts";

/** Largest request body the env server reads. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads and validates a JSON body. An empty body reads as `{}` when `emptyAs` is given (for routes whose
 * fields are all optional); otherwise it is a 400.
 */
export async function readJson<S extends z.ZodType>(
  c: Context,
  schema: S,
  emptyAs?: z.input<S>,
): Promise<z.output<S>> {
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await c.req.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw tooLarge();
  let value: unknown;
  if (text.trim() === "") {
    if (emptyAs === undefined)
      throw new EnvRequestError(400, "invalid_json", "The request body is empty; send a JSON object.");
    value = emptyAs;
  } else {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new EnvRequestError(
        400,
        "invalid_json",
        `The request body is not valid JSON: ${(error as Error).message}`,
      );
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`);
    throw new EnvRequestError(400, "invalid_request", `Invalid request body: ${problems.join("; ")}`);
  }
  return parsed.data;
}

function tooLarge(): EnvRequestError {
  return new EnvRequestError(413, "body_too_large", `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
}

/** The JSON answer for an error thrown while handling a request. */
export function errorResponse(c: Context, error: unknown): Response {
  if (error instanceof EnvRequestError) {
    return c.json({ error: error.message, code: error.code }, error.status, error.headers);
  }
  // Anything else is a bug: answer 500 with its message and leave the stack on stderr.
  console.error(error);
  return c.json(
    { error: `Internal error: ${(error as Error)?.message ?? String(error)}`, code: "internal" },
    500,
  );
}

/** Requires `Authorization: Bearer <token>` when a token is set. */
export function bearerAuth(token: string | null | undefined): MiddlewareHandler {
  const expected = token ? Buffer.from(token) : null;
  return async (c, next) => {
    if (expected) {
      const header = c.req.header("authorization") ?? "";
      const given = Buffer.from(/^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim() ?? "");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new EnvRequestError(
          401,
          "unauthorized",
          header
            ? "The bearer token is wrong: send the token the server was started with (--token)."
            : "This server requires a bearer token: send Authorization: Bearer <token> (the server's --token).",
          { "www-authenticate": 'Bearer realm="atlas-gym"' },
        );
      }
    }
    await next();
  };
}
