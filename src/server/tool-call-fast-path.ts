/**
 * A fast path for the env server's hottest route, `POST /v1/sessions/:sid/tools/:name`, in front of the
 * Hono app: the same steps as the Hono route (session-routes.ts: the session, the body through the
 * route's own schema, callRequested with its Idempotency-Key, callAnswer) without routing and a Hono
 * context per call. It sits behind the auth gate, so the one auth decision is made before it. Anything it
 * is not sure of goes on to the Hono route, which words every error: a path that does not match plainly,
 * no session by that id, a body that is not JSON or that the schema's compiled parser is not sure of (the
 * text already read is kept for the route, read-body.ts keepBodyText). Errors raised past that point (an oversized body, a sequence conflict, a bad or
 * conflicting key, a session closed meanwhile) get the route's answer, built by the
 * same function (protocol.ts envErrorResponse), so both paths answer the same status, headers and bytes.
 */
import { keepBodyText, readBodyText } from "../http/read-body.ts";
import { pathOf } from "../http/url-parts.ts";
import { parseJson } from "../sandbox/parse-json.ts";
import { MISS, quickParser } from "../sandbox/quick-parse.ts";
import { envErrorResponse, tooLarge } from "./protocol.ts";
import { type CallBody, callAnswer, callAnswerHeaders, callBody, callRequested } from "./session-routes.ts";
import type { Session, SessionStore } from "./sessions.ts";

type Fetch = (request: Request) => Response | Promise<Response>;

/** The route's path with plain ids (a percent-encoded or odd name goes to the router, which decodes it). */
const TOOL_CALL_PATH = /^\/v1\/sessions\/([\w.-]+)\/tools\/([\w.-]+)$/;

/** `next` with tool calls on open sessions answered directly (see above). */
export function withToolCallFastPath(sessions: SessionStore, next: Fetch): Fetch {
  const parse = quickParser(callBody);
  if (parse === null) return next;
  return (request) => {
    if (request.method !== "POST") return next(request);
    const match = TOOL_CALL_PATH.exec(pathOf(request.url));
    if (match === null) return next(request);
    const session = sessions.find(match[1]!);
    if (session === undefined) return next(request);
    return call(request, session, match[2]!, (text) => bodyOf(text, parse), next);
  };
}

async function call(
  request: Request,
  session: Session,
  name: string,
  parse: (text: string) => CallBody | typeof MISS,
  next: Fetch,
): Promise<Response> {
  // Read as the route reads it (a declared length over the limit is refused unread).
  const text = await readBodyText(request);
  if (text === null) return envErrorResponse(tooLarge());
  const body = parse(text);
  if (body === MISS) {
    keepBodyText(request, text); // the route reads the same text
    return next(request);
  }
  try {
    const { result, replayed } = await callRequested(session, name, body, request.headers);
    return new Response(callAnswer(result), { status: 200, headers: callAnswerHeaders(replayed) });
  } catch (error) {
    return envErrorResponse(error);
  }
}

/** The body as the route's schema reads it, or MISS when the compiled parser is not sure (or not JSON). */
function bodyOf(text: string, parse: (value: unknown) => unknown): CallBody | typeof MISS {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    return MISS;
  }
  return parse(value) as CallBody | typeof MISS;
}
