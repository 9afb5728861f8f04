/**
 * The REST facade: a Hono app with one route per operation, on the operation's real path, served at the
 * root (default site) and under `/s/<siteId>` (isolated sites). Every boundary failure (auth, unknown
 * path, body too large, wrong content type, malformed JSON) is answered in the vendor's error shape and
 * changes nothing.
 */
import type { IncomingMessage } from "node:http";
import { type Context, Hono } from "hono";
import { ApiError, dialectError } from "../sandbox/api-error.ts";
import type { Operation, OperationContext } from "../sandbox/define-operation.ts";
import { executeOperation, type OperationInput, type OperationResult } from "../sandbox/execute.ts";
import { AGENT_ACCOUNT_ID } from "../sandbox/fixtures/default-site.ts";
import { OPERATIONS } from "../sandbox/operations.ts";
import { parseJson } from "../sandbox/parse-json.ts";
import { type Endpoint, executePresentation, type Presentation } from "../sandbox/presentation.ts";
import { PRESENTATIONS } from "../sandbox/presentations.ts";
import type { Site } from "../sandbox/site.ts";
import { answerHeaders } from "./answer-headers.ts";
import { type AuthResult, type Credentials, checkBasicAuth } from "./basic-auth.ts";
import { dialectForPath } from "./dialect.ts";
import { MemoRouter } from "./memo-router.ts";
import { MAX_BODY_BYTES, readBodyText, TOO_LARGE_HEADERS } from "./read-body.ts";
import { createReadCache, type HeldRead, type ReadCache } from "./read-cache.ts";
import { rememberAccepted } from "./remembered-auth.ts";
import { SiteCapacityError, type SiteRegistry } from "./site-registry.ts";
import { originOf } from "./url-parts.ts";

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
  /**
   * Whether GET reads are answered from a per-site cache while the site is unchanged (default true; see
   * read-cache.ts). Off only to measure what computing every answer costs.
   */
  cacheReads?: boolean;
}

/** What an observer learns about the request an operation answered. */
export interface ObservedRequest {
  /** The isolated site's id for `/s/<id>/...` requests; null for the default site. */
  siteId: string | null;
  /** The operation input; null when the request failed before the operation ran (auth, body). */
  input: OperationInput | null;
  /** The context the operation ran with (base URL, acting user); null when it did not run. */
  ctx: OperationContext | null;
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
  cacheReads = true,
}: RestAppOptions): Hono {
  const app = new Hono({ router: new MemoRouter() });
  const reads: ReadCache | null = cacheReads ? createReadCache() : null;
  // The same client sends the same header on every request: its decision is remembered once accepted.
  const checkAuth = rememberAccepted((header) => checkBasicAuth(header, credentials));
  const endpoints: Endpoint[] = [...operations, ...presentations];
  // Routes match in registration order: fixed paths (`/project/search`) go before parameterised ones (`/project/{key}`).
  const byParams = endpoints.sort((a, b) => paramCount(a.path) - paramCount(b.path));
  for (const endpoint of byParams) {
    const op = operationOf(endpoint);
    const route: Route = { endpoint, op, cacheable: cacheReads && isCacheable(endpoint, op) };
    for (const path of servedPaths(endpoint.path)) {
      app.on(endpoint.method, path, (c) => handle(c, route, null));
      app.on(endpoint.method, `/s/:siteId${path}`, (c) => handle(c, route, c.req.param("siteId")));
    }
  }
  // Forgetting an isolated site (an env-server session's site is closed with its session instead).
  app.delete("/s/:siteId", (c) => {
    const auth = checkAuth(authorizationOf(c));
    if (!auth.ok) return send(c, failure(dialectError("jira", 401, auth.message)));
    const siteId = c.req.param("siteId");
    if (sites.isBound(siteId))
      return send(
        c,
        failure(
          dialectError(
            "jira",
            409,
            `Site ${siteId} belongs to an env-server session: close it with DELETE /v1/sessions/${siteId}.`,
          ),
        ),
      );
    if (!sites.delete(siteId))
      return send(
        c,
        failure(dialectError("jira", 404, `No isolated site ${siteId} is held by this server.`)),
      );
    return c.body(null, 204);
  });
  app.notFound((c) =>
    send(
      c,
      failure(
        REMOVED_SEARCH.test(c.req.path)
          ? dialectError("jira", 410, REMOVED_SEARCH_MESSAGE)
          : dialectError(
              dialectForPath(c.req.path),
              404,
              `No API operation matches ${c.req.method} ${c.req.path}`,
            ),
      ),
    ),
  );

  /**
   * A request's answer. A read held in the cache is answered at once (no promise, no await) after the
   * same auth decision, with its observer told what a computed answer would tell it; anything else goes
   * through `answered`.
   */
  function handle(c: Context, route: Route, siteId: string | null): Response | Promise<Response> {
    const auth = checkAuth(authorizationOf(c));
    const cacheKey = auth.ok && route.cacheable ? `${auth.email ?? ""} ${c.req.url}` : null;
    const hit = cacheKey === null ? undefined : cachedRead(siteId, cacheKey);
    if (hit === undefined) return answered(c, route, siteId, auth, cacheKey);
    const { endpoint, op } = route;
    const { input, ctx, answer } = hit;
    observe?.(op, hit.result, { siteId, input, ctx, endpoint, answer });
    return c.body(hit.bytes, answer.status as 200, hit.headers as Record<string, string>);
  }

  /** The read cached for this request on its site; none when the site cannot be had now (see `answer`). */
  function cachedRead(siteId: string | null, key: string): HeldRead | undefined {
    if (siteId === null) return reads!.get(sites.root, key);
    try {
      return sites.use(siteId, (site) => reads!.get(site, key));
    } catch (error) {
      if (error instanceof SiteCapacityError) return undefined;
      throw error;
    }
  }

  async function answered(
    c: Context,
    { endpoint, op }: Route,
    siteId: string | null,
    auth: AuthResult,
    cacheKey: string | null,
  ): Promise<Response> {
    const request: ObservedRequest = { siteId, input: null, ctx: null, endpoint, answer: null };
    const result = auth.ok
      ? await answer({ c, endpoint, op, request, email: auth.email, cacheKey })
      : failure(dialectError(endpoint.api, 401, auth.message));
    request.answer ??= result;
    observe?.(op, result, request);
    return send(c, request.answer, reads?.bytesOf(request.answer));
  }

  /** The operation's result; for a presentation, its own answer goes to `request.answer`. */
  async function answer(call: Call): Promise<OperationResult> {
    const { endpoint, request } = call;
    try {
      // Inline (unnamed) callbacks: tsx names every named closure at creation, a cost per request.
      return await (request.siteId === null
        ? onSite(call, sites.root)
        : sites.use(request.siteId, (site) => onSite(call, site)));
    } catch (error) {
      if (error instanceof ApiError) return failure(error);
      if (error instanceof SiteCapacityError) {
        const { body } = dialectError(endpoint.api, 429, error.message);
        return failure(new ApiError(429, body, { "retry-after": String(error.retryAfterSeconds) }));
      }
      throw error;
    }
  }

  /**
   * A request's answer computed on its site, and cached when it may be (`handle` has found no cached
   * read for it, and nothing ran in between: this is reached without an await).
   */
  async function onSite(call: Call, site: Site): Promise<OperationResult> {
    const { cacheKey, request } = call;
    const revision = site.revision;
    const result = await compute(call, site);
    if (cacheKey !== null)
      reads!.set(site, revision, cacheKey, {
        input: request.input!,
        ctx: request.ctx!,
        result,
        answer: request.answer ?? result,
      });
    return result;
  }

  async function compute({ c, endpoint, op, request, email }: Call, site: Site): Promise<OperationResult> {
    const body = op.body ? await readJsonBody(c, endpoint) : undefined;
    const params = { ...collectQuery(c), ...pathParams(c) };
    const origin = publicUrl?.replace(/\/+$/, "") ?? originOf(c.req.url);
    const prefix = request.siteId === null ? "" : `/s/${request.siteId}`;
    const ctx = { baseUrl: `${origin}${prefix}`, accountId: actingUser(site, email) };
    request.ctx = ctx;
    if (endpoint === op) {
      request.input = { params, body };
      return executeOperation(site, op, request.input, ctx);
    }
    const presented = executePresentation(site, endpoint as Presentation, { params, body }, ctx);
    // Null when this API version's request could not be translated: the operation never ran (as for a
    // body that is not JSON), so the journal keeps its answer instead of running it again on replay.
    request.input = presented.input;
    request.answer = presented.answer;
    return presented.result;
  }

  return app;
}

/**
 * The old issue search (`searchForIssuesUsingJql`, GET/POST /rest/api/2|3/search), which Atlassian
 * Cloud removed: it answers 410 with Cloud's own message pointing to /search/jql (CHANGE-2046).
 */
const REMOVED_SEARCH = /^(?:\/s\/[^/]+)?\/rest\/api\/[23]\/search\/?$/;
const REMOVED_SEARCH_MESSAGE =
  "The requested API has been removed. Please migrate to the /rest/api/3/search/jql API. A full migration guideline is available at https://developer.atlassian.com/changelog/#CHANGE-2046";

/** A served route: its endpoint, the operation it performs, and whether its answers may be cached. */
interface Route {
  endpoint: Endpoint;
  op: Operation;
  cacheable: boolean;
}

/** One request on its way to a site: what the route is, who asks, and its read-cache key (null: not cached). */
interface Call {
  c: Context;
  endpoint: Endpoint;
  op: Operation;
  request: ObservedRequest;
  email: string | null;
  cacheKey: string | null;
}

const paramCount = (path: string) => path.split("{").length - 1;

/** Reads that take no body: their answers can be cached while the site is unchanged. */
const isCacheable = (endpoint: Endpoint, op: Operation) =>
  endpoint.method === "GET" && op.effect === "read" && !op.body;

/** The Hono paths an endpoint answers on: Jira treats `/rest/api/latest` as `/rest/api/2` (pycontribs uses both). */
function servedPaths(path: string): string[] {
  const route = path.replace(/\{(\w+)\}/g, ":$1");
  const v2 = "/rest/api/2/";
  return route.startsWith(v2) ? [route, `/rest/api/latest/${route.slice(v2.length)}`] : [route];
}

/** The operation a route performs (a presentation performs its operation). */
function operationOf(endpoint: Endpoint): Operation {
  return "operation" in endpoint ? (endpoint as Presentation).operation : (endpoint as Operation);
}
function failure(error: ApiError): OperationResult {
  return { ok: false, status: error.status, body: error.body, headers: error.headers };
}

/** The route's answer; `bytes`, when given, are the body already encoded (a cached read's). */
function send(c: Context, result: OperationResult, bytes?: Uint8Array<ArrayBuffer>): Response {
  const headers = answerHeaders(result);
  if (result.body === undefined) return c.body(null, result.status as 204, headers);
  return c.body(bytes ?? JSON.stringify(result.body), result.status as 200, headers);
}

/**
 * The request's Authorization header. Served by @hono/node-server, it is read from node's own parsed
 * headers (the fetch Request's Headers object would be built for this one header, a cost per request);
 * otherwise from the Request.
 */
function authorizationOf(c: Context): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming ? incoming.headers.authorization : c.req.header("authorization");
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

async function readJsonBody(c: Context, op: Endpoint): Promise<unknown> {
  const text = await readBodyText(c.req.raw);
  if (text === null) throw tooLarge(op);
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
    return parseJson(text);
  } catch (error) {
    throw dialectError(op.api, 400, `Malformed JSON in the request body: ${(error as Error).message}`);
  }
}

function tooLarge(op: Endpoint): ApiError {
  const { body } = dialectError(op.api, 413, `Request body is larger than the ${MAX_BODY_BYTES} byte limit.`);
  return new ApiError(413, body, { ...TOO_LARGE_HEADERS });
}

function actingUser(site: Site, email: string | null): string {
  if (email) for (const user of site.values("users")) if (user.emailAddress === email) return user.accountId;
  return AGENT_ACCOUNT_ID;
}
