/**
 * ApiError: the only error that crosses from an operation handler to a caller. It carries the vendor's
 * HTTP status and body, so REST, tools and MCP all report the same thing. Any other exception in a
 * handler is a bug and is left to surface loudly.
 */

/** Jira's ErrorCollection body. */
export interface JiraErrorBody {
  errorMessages: string[];
  errors: Record<string, string>;
}

/** Confluence v2's observed error envelope. */
export interface ConfluenceErrorBody {
  errors: { status: number; code: string; title: string; detail: string | null }[];
}

/** Confluence v1's error body. */
export interface ConfluenceV1ErrorBody {
  statusCode: number;
  data: {
    authorized: boolean;
    valid: boolean;
    errors: { message: { translation: string; args: [] } }[];
    successful: boolean;
  };
  message: string;
}

export type ApiErrorBody = JiraErrorBody | ConfluenceErrorBody | ConfluenceV1ErrorBody;

/** Thrown by handlers for every failure the real API would answer with an error status. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${status} ${summarize(body)}`);
  }
}

/** Which error dialect an API speaks. */
export type ErrorDialect = "jira" | "confluence" | "confluence-v1";

const CONFLUENCE_CODES: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "CONFLICT",
  413: "REQUEST_ENTITY_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "TOO_MANY_REQUESTS",
};

/** A Jira error: `{"errorMessages":[...],"errors":{...}}`. */
export function jiraError(
  status: number,
  errorMessages: string[],
  errors: Record<string, string> = {},
): ApiError {
  return new ApiError(status, { errorMessages, errors });
}

/** A Confluence v2 error: `{"errors":[{"status","code","title","detail"}]}`. */
export function confluenceError(
  status: number,
  title: string,
  code = CONFLUENCE_CODES[status] ?? "ERROR",
): ApiError {
  return new ApiError(status, { errors: [{ status, code, title, detail: null }] });
}

/** A Confluence v1 error, as the old REST API answers it. */
export function confluenceV1Error(status: number, message: string): ApiError {
  return new ApiError(status, {
    statusCode: status,
    data: {
      authorized: status !== 401 && status !== 403,
      valid: status !== 400,
      errors: [{ message: { translation: message, args: [] } }],
      successful: false,
    },
    message,
  });
}

/** An error in the given dialect, for boundaries (routing, body parsing) shared by every API. */
export function dialectError(dialect: ErrorDialect, status: number, message: string): ApiError {
  if (dialect === "jira") return jiraError(status, [message]);
  if (dialect === "confluence") return confluenceError(status, message);
  return confluenceV1Error(status, message);
}

function summarize(body: ApiErrorBody): string {
  if ("errorMessages" in body) return [...body.errorMessages, ...Object.values(body.errors)].join("; ");
  if ("errors" in body) return body.errors.map((e) => e.title).join("; ");
  return body.message;
}
