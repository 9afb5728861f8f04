/**
 * Test helpers for servers: a JSON HTTP call against a running server, by fetch or over node:http
 * through a keep-alive agent (one agent stands for one client), or against a fetch handler in process.
 */
import { type Agent, request } from "node:http";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked by the tests' assertions
export interface JsonAnswer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked by the tests' assertions
export async function api<T = any>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<JsonAnswer<T>> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  const response = await fetch(`${base}${path}`, init);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** The same JSON call against a fetch handler in process (a server's `fetch`, no port). */
export function handlerApi(fetch: (request: Request) => Response | Promise<Response>) {
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers are checked by the tests' assertions
  return async <T = any>(method: string, path: string, body?: unknown): Promise<JsonAnswer<T>> => {
    const response = await fetch(
      new Request(`http://gym.test${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
  };
}

/** The same JSON call over node:http through a keep-alive agent: one agent stands for one client. */
export function agentApi(agent: Agent, base: string) {
  const { hostname, port } = new URL(base);
  return (method: string, path: string, body?: unknown): Promise<JsonAnswer> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers: Record<string, string | number> = payload
        ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }
        : {};
      const req = request({ host: hostname, port, method, path, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === "string") answerHeaders.set(name, value);
          resolve({
            status: res.statusCode ?? 0,
            body: text ? JSON.parse(text) : null,
            headers: answerHeaders,
          });
        });
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(payload);
    });
}
