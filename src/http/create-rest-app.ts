/**
 * The REST facade: a Hono app with one route per operation, on the operation's real path, served at the
 * root (default site) and under `/s/<siteId>` (isolated sites). Every boundary failure (auth, unknown
 * path, body too large, wrong content type, malformed JSON) is answered in the vendor's error shape and
 * changes nothing.
 */
import { type Context, Hono } from "hono";
import { ApiError, dialectError } from "../sandbox/api-error.ts";
import type { Operation } from "../sandbox/define-operation.ts";
import { executeOperation, type OperationInput, type OperationResult } from "../sandbox/execute.ts";
import { AGENT_ACCOUNT_ID } from "../sandbox/fixtures/default-site.ts";
import { OPERATIONS } from "../sandbox/operations.ts";
import { type Endpoint, executePresentation, type Presentation } from "../sandbox/presentation.ts";
import { PRESENTATIONS } from "../sandbox/presentations.ts";
import type { Site } from "../sandbox/site.ts";
import { type Credentials, checkBasicAuth } from "./basic-auth.ts";
import { dialectForPath } from "./dialect.ts";
import type { SiteRegistry } from "./site-registry.ts";

/** Largest request body accepted, as on Atlassian Cloud's gateway. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface RestAppOptions {
  sites: SiteRegistry;
  /**
   * The public origin clients use (`--base-url`, e.g. `https://acme.atlassian.net` behind a proxy or a
   * hosts-file name); `self` links and serverInfo's baseUrl start with it instead of the request's origin.
   */
  publicUrl?: string | null;
  /** When set, Basic auth must carry exactly these credentials. */
  credentials?: Credentials | null;
  operations?: readonly Operation[];
  /** Other surfaces' views of the operations (Jira v2, Confluence v1 content); see sandbox/presentation.ts. */
  presentations?: readonly Presentation[];
  /**
   * Called with every answer an operation gives (for logging, for checking answers against the spec, or
   * for recording the call on the trace of the env-server session that owns the site).
   */
  observe?: (op: Operation, result: OperationResult, request: ObservedRequest) => void;
}

/** What an observer learns about the request an operation answered. */
export interface ObservedRequest {
  /** The isolated site's id for `/s/<id>/...` requests; null for the default site. */
  siteId: string | null;
  /** The operation input; null when the request failed before the operation ran (auth, body). */
  input: OperationInput | null;
  /** The route that answered: the operation itself, or a presentation of it (another API surface). */
  endpoint: Endpoint;
  /** What the route answered (for a presentation, its own shape of the operation's result). */
  answer: OperationResult | null;
}

export function createRestApp({
  sites,
  credentials = null,
  publicUrl = null,
  operations = OPERATIONS,
  presentations = PRESENTATIONS,
  observe,
}: RestAppOptions): Hono {
  const app = new Hono();
  const routes: Endpoint[] = [...operations, ...presentations];
  // Routes match in registration order: fixed paths (`/project/search`) go before parameterised ones (`/project/{key}`).
  const byParams = routes.sort((a, b) => paramCount(a.path) - paramCount(b.path));
  for (const endpoint of byParams) {
    const path = endpoint.path.replace(/\{(\w+)\}/g, ":$1");
    app.on(endpoint.method, path, (c) => handle(c, endpoint, sites.root, null));
    app.on(endpoint.method, `/s/:siteId${path}`, (c) => {
      const siteId = c.req.param("siteId");
      return handle(c, endpoint, sites.get(siteId), siteId);
    });
  }
  app.notFound((c) =>
    send(
      c,
      failure(
        dialectError(
          dialectForPath(c.req.path),
          404,
          `No API operation matches ${c.req.method} ${c.req.path}`,
        ),
      ),
    ),
  );

  async function handle(
    c: Context,
    endpoint: Endpoint,
    site: Site,
    siteId: string | null,
  ): Promise<Response> {
    const op = "operation" in endpoint ? (endpoint as Presentation).operation : (endpoint as Operation);
    const request: ObservedRequest = { siteId, input: null, endpoint, answer: null };
    const result = await answer(c, endpoint, op, site, request);
    request.answer ??= result;
    observe?.(op, result, request);
    return send(c, request.answer);
  }

  /** The operation's result; for a presentation, its own answer goes to `request.answer`. */
  async function answer(
    c: Context,
    endpoint: Endpoint,
    op: Operation,
    site: Site,
    request: ObservedRequest,
  ): Promise<OperationResult> {
    const auth = checkBasicAuth(c.req.header("authorization"), credentials);
    if (!auth.ok) return failure(dialectError(endpoint.api, 401, auth.message));
    try {
      const body = hasBody(endpoint) ? await readJsonBody(c, endpoint) : undefined;
      const params = { ...collectQuery(c), ...pathParams(c) };
      const origin = publicUrl?.replace(/\/+$/, "") ?? originOf(c.req.url);
      const prefix = request.siteId === null ? "" : `/s/${request.siteId}`;
      const ctx = { baseUrl: `${origin}${prefix}`, accountId: actingUser(site, auth.email) };
      if (endpoint === op) {
        request.input = { params, body };
        return executeOperation(site, op, request.input, ctx);
      }
      const presented = executePresentation(site, endpoint as Presentation, { params, body }, ctx);
      request.input = presented.input ?? { params, body };
      request.answer = presented.answer;
      return presented.result;
    } catch (error) {
      if (error instanceof ApiError) return failure(error);
      throw error;
    }
  }

  return app;
}

const paramCount = (path: string) => path.split("{").length - 1;

/** `http://host:port` of an absolute request URL (cheaper than building a URL object per request). */
function originOf(url: string): string {
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  return pathStart === -1 ? url : url.slice(0, pathStart);
}

function failure(error: ApiError): OperationResult {
  return { ok: false, status: error.status, body: error.body, headers: error.headers };
}

function send(c: Context, result: OperationResult): Response {
  const headers: Record<string, string> = { ...result.headers };
  if (result.body === undefined) return c.body(null, result.status as 204, headers);
  headers["content-type"] = "application/json;charset=UTF-8";
  return c.body(JSON.stringify(result.body), result.status as 200, headers);
}

/** Query parameters; a repeated parameter becomes an array (both forms are accepted downstream). */
function collectQuery(c: Context): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (!c.req.url.includes("?")) return out;
  for (const [key, values] of Object.entries(c.req.queries()))
    out[key] = values.length === 1 ? values[0]! : values;
  return out;
}

function pathParams(c: Context): Record<string, string> {
  const { siteId: _siteId, ...params } = c.req.param() as Record<string, string>;
  return params;
}

/** Whether a route reads a JSON body (presentations read one when their operation does). */
function hasBody(endpoint: Endpoint): boolean {
  const op = "operation" in endpoint ? (endpoint as Presentation).operation : (endpoint as Operation);
  return op.body !== undefined;
}

async function readJsonBody(c: Context, op: Endpoint): Promise<unknown> {
  const length = Number(c.req.header("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) throw tooLarge(op);
  const text = await c.req.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw tooLarge(op);
  if (text.trim() === "") return undefined;
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw dialectError(
      op.api,
      415,
      `Unsupported media type '${type || "none"}': send the body as application/json.`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw dialectError(op.api, 400, `Malformed JSON in the request body: ${(error as Error).message}`);
  }
}

function tooLarge(op: Endpoint): ApiError {
  return dialectError(op.api, 413, `Request body is larger than the ${MAX_BODY_BYTES} byte limit.`);
}

function actingUser(site: Site, email: string | null): string {
  if (email) for (const user of site.values("users")) if (user.emailAddress === email) return user.accountId;
  return AGENT_ACCOUNT_ID;
}
