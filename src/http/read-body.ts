/**
 * Reading a request body under a size limit, for every server here (REST facade, env server, MCP): a
 * declared Content-Length over the limit is refused before reading, and a body without one (chunked)
 * stops being read as soon as it passes the limit, so an oversized request never sits in memory whole.
 */

/** Largest request body accepted, as on Atlassian Cloud's gateway. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The body as UTF-8 text ("" when there is none), or null when it is larger than `limit` bytes. */
export async function readBodyText(request: Request, limit = MAX_BODY_BYTES): Promise<string | null> {
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    if (Number(declared) > limit) return null;
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
  return Buffer.concat(chunks, size).toString("utf8");
}
