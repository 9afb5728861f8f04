/**
 * Reading a request body under a size limit, for every server here (REST facade, env server, MCP): a
 * declared Content-Length over the limit is refused before reading, and a body without one (chunked)
 * stops being read as soon as it passes the limit, so an oversized request never sits in memory whole.
 */

/** Largest request body accepted, as on Atlassian Cloud's gateway. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Headers of a 413 answer: it is sent before the rest of its body is read, and the server then drops
 * the connection rather than read it, so the answer says so and a keep-alive client does not send its
 * next request on a socket about to close.
 */
export const TOO_LARGE_HEADERS: Readonly<Record<string, string>> = { connection: "close" };

/**
 * The body as text ("" when there is none), decoded as its Content-Type's charset says (UTF-8 unless it
 * names another), or null when it is larger than `limit` bytes; what
 * keepBodyText kept for this request when a wrapper in front already read it.
 */
export async function readBodyText(request: Request, limit = MAX_BODY_BYTES): Promise<string | null> {
  const kept = KEPT.get(request);
  if (kept !== undefined) return kept;
  const decoder = declaredDecoder(request.headers.get("content-type"));
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    if (Number(declared) > limit) return null;
    if (decoder !== null) {
      const bytes = new Uint8Array(await request.arrayBuffer());
      return bytes.byteLength > limit ? null : decoder.decode(bytes);
    }
    // A declared length bounds what is read; text() keeps @hono/node-server's fast path (no stream).
    const text = await request.text();
    return Buffer.byteLength(text) > limit ? null : text;
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = Buffer.concat(chunks, size);
  return decoder === null ? bytes.toString("utf8") : decoder.decode(bytes);
}

/**
 * A decoder for the charset the Content-Type declares when it is not UTF-8 and one the platform knows
 * (`ISO-8859-1`, `UTF-16`, ...), as Atlassian's servers read a body in its declared charset; null for
 * UTF-8, none declared, or one unknown (read as UTF-8).
 */
function declaredDecoder(contentType: string | null): InstanceType<typeof TextDecoder> | null {
  const charset = contentType && /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
  if (!charset || charset === "utf-8" || charset === "utf8") return null;
  try {
    return new TextDecoder(charset);
  } catch {
    return null;
  }
}

/** Bodies already read, by request (see keepBodyText). */
const KEPT = new WeakMap<Request, string | null>();

/**
 * Keeps what readBodyText gave for `request`, so the handler it is passed on to reads the same text
 * (a body can be read once; a wrapper that looked at it first hands the request on unchanged).
 */
export function keepBodyText(request: Request, text: string | null): void {
  KEPT.set(request, text);
}
