/**
 * A small fetch for the openai client over node:http(s) with keep-alive agents. The client's default
 * (undici's fetch) streams every request body and costs about twice the CPU per model call; at 64
 * concurrent rollouts that is the harness's largest cost. Only what the client uses is supported:
 * a string body, headers, an abort signal, and a buffered response.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 512 }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 512 }),
};

export function nodeHttpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
  const secure = url.protocol === "https:";
  const headers = Object.fromEntries(new Headers(init.headers as ConstructorParameters<typeof Headers>[0]));
  const body = init.body;
  if (body !== undefined && body !== null && typeof body !== "string")
    return Promise.reject(new TypeError("nodeHttpFetch sends string bodies only"));
  return new Promise((resolve, reject) => {
    const send = secure ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: init.method ?? "GET",
        headers,
        agent: secure ? agents.https : agents.http,
        signal: init.signal ?? undefined,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const status = res.statusCode ?? 502;
          const payload = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(payload, { status, headers: toHeaders(res.headers) }));
        });
      },
    );
    req.on("error", reject);
    req.end(body ?? undefined);
  });
}

function toHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}
