/**
 * A fake OpenAI-compatible model server for tests and benchmarks: real HTTP on 127.0.0.1, in the
 * calling process, serving /v1/models, /v1/chat/completions (non-streamed) and /v1/completions. A
 * behaviour function decides each reply: a message, raw completion text, an HTTP error (with headers
 * such as Retry-After), a body that is not JSON, a request left hanging (client timeouts) or a dropped
 * connection. Ready-made behaviours play scripted agents (the reference solution, the paper's silent
 * failures) one call per request, keyed by the task prompt in the conversation.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { findPolicy } from "../../src/agent/scripted/policies.ts";
import type { Script } from "../../src/agent/scripted/replay.ts";
import { createEpisode } from "../../src/env/episode.ts";
import { createRandom } from "../../src/sandbox/random.ts";
import type { Scenario, Task } from "../../src/scenarios/define-scenario.ts";

export interface FakeRequest {
  path: "/v1/chat/completions" | "/v1/completions";
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are whatever the client sent
  body: any;
  /** Requests served before this one. */
  index: number;
}

export interface FakeToolCall {
  id?: string;
  type?: "function";
  function: { name: string; arguments: unknown };
}

export type FakeReply = (
  | { message: { content?: string | null; tool_calls?: FakeToolCall[]; reasoning_content?: string } }
  | { text: string }
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { rawBody: string; status?: number }
  | { hang: true }
  | { drop: true }
) & { delayMs?: number };

export type Behaviour = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

export interface FakeServer {
  /** Base URL including /v1, as OpenAI clients take it. */
  baseURL: string;
  requests: FakeRequest[];
  /** Milliseconds each answered request spent in the server (body read to response end). */
  serverMs: number[];
  setBehaviour(behaviour: Behaviour): void;
  close(): Promise<void>;
}

/** `models`: what GET /v1/models lists; null answers it with a 404, as servers without the route do. */
export async function startFakeOpenAIServer(
  initial: Behaviour,
  models: string[] | null = ["fake-model"],
): Promise<FakeServer> {
  let behaviour = initial;
  const requests: FakeRequest[] = [];
  const serverMs: number[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const started = performance.now();
    if (req.method === "GET" && req.url === "/v1/models" && models)
      return sendJson(res, 200, {
        object: "list",
        data: models.map((id) => ({ id, object: "model", owned_by: "fake" })),
      });
    const path = req.url === "/v1/chat/completions" || req.url === "/v1/completions" ? req.url : undefined;
    if (req.method !== "POST" || !path)
      return sendJson(res, 404, { error: { message: `No route ${req.url}` } });
    const request: FakeRequest = { path, body: JSON.parse(body || "{}"), index: requests.length };
    requests.push(request);
    const reply = await behaviour(request);
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if ("hang" in reply) return;
    if ("drop" in reply) return req.socket.destroy();
    if ("rawBody" in reply) {
      res.writeHead(reply.status ?? 200, { "content-type": "application/json" }).end(reply.rawBody);
    } else if ("status" in reply) {
      sendJson(
        res,
        reply.status,
        reply.body ?? { error: { message: `HTTP ${reply.status}` } },
        reply.headers,
      );
    } else if ("text" in reply) {
      sendJson(res, 200, completion(request, reply.text));
    } else {
      sendJson(res, 200, chatCompletion(request, reply.message));
    }
    serverMs.push(performance.now() - started);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    serverMs,
    setBehaviour: (next) => {
      behaviour = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

const tokens = (text: string) => Math.ceil(text.length / 4);

function chatCompletion(request: FakeRequest, message: Extract<FakeReply, { message: unknown }>["message"]) {
  const toolCalls = message.tool_calls?.map((c, i) => ({
    id: c.id ?? `fake_${request.index}_${i}`,
    type: "function",
    function: { name: c.function.name, arguments: c.function.arguments },
  }));
  const completionText = (message.content ?? "") + JSON.stringify(toolCalls ?? []);
  return {
    id: `chatcmpl-${request.index}`,
    object: "chat.completion",
    created: 0,
    model: request.body.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: message.content ?? null,
          ...(toolCalls ? { tool_calls: toolCalls } : {}),
          ...(message.reasoning_content ? { reasoning_content: message.reasoning_content } : {}),
        },
        finish_reason: toolCalls?.length ? "tool_calls" : "stop",
      },
    ],
    usage: usage(JSON.stringify(request.body.messages), completionText),
  };
}

function completion(request: FakeRequest, text: string) {
  return {
    id: `cmpl-${request.index}`,
    object: "text_completion",
    created: 0,
    model: request.body.model,
    choices: [{ index: 0, text, finish_reason: "stop", logprobs: null }],
    usage: usage(String(request.body.prompt), text),
  };
}

function usage(prompt: string, completionText: string) {
  const prompt_tokens = tokens(prompt);
  const completion_tokens = tokens(completionText);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

// ---- behaviours ----------------------------------------------------------------------------------

/** The conversation's task prompt (first user message) and the number of assistant turns so far. */
export function conversationOf(request: FakeRequest): { prompt: string; step: number } {
  // biome-ignore lint/suspicious/noExplicitAny: chat messages as sent
  const messages: any[] = request.body.messages ?? [];
  return {
    prompt: messages.find((m) => m.role === "user")?.content ?? "",
    step: messages.filter((m) => m.role === "assistant").length,
  };
}

/**
 * Plays a scripted policy (e.g. "reference": a competent agent; "read-only", "drop-field",
 * "hallucinate": the paper's silent failures) for the task whose prompt opens the conversation: one
 * tool call per request, then the final message.
 */
export function scriptedBehaviour(
  policyName: string,
  tasks: readonly { scenario: Scenario; task: Task }[],
): Behaviour {
  const policy = findPolicy(policyName);
  const byPrompt = new Map<string, { scenario: Scenario; task: Task }>();
  for (const entry of tasks) {
    if (byPrompt.has(entry.task.prompt)) throw new Error(`Two tasks share the prompt '${entry.task.prompt}'`);
    byPrompt.set(entry.task.prompt, entry);
  }
  const scripts = new Map<string, Script>();
  return (request) => {
    const { prompt, step } = conversationOf(request);
    let script = scripts.get(prompt);
    if (!script) {
      const entry = byPrompt.get(prompt);
      if (!entry) return { status: 400, body: { error: { message: `Unknown task prompt '${prompt}'` } } };
      script = policy.script(
        createEpisode(entry.scenario, entry.task),
        createRandom(`fake:${entry.task.id}`),
      );
      scripts.set(prompt, script);
    }
    const call = script.calls[step];
    if (!call) return { message: { content: script.final } };
    return {
      message: {
        content: null,
        tool_calls: [{ function: { name: call.name, arguments: JSON.stringify(call.arguments) } }],
      },
    };
  };
}

/** Answers the first `count` requests with `reply`, then behaves as `then`. */
export function failFirst(count: number, reply: FakeReply, then: Behaviour): Behaviour {
  let failed = 0;
  return (request) => (failed++ < count ? reply : then(request));
}
