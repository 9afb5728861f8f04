/**
 * `openai:<base-url>#<model>`: any OpenAI-compatible Chat Completions server with tool calling (vLLM,
 * SGLang, Ollama, llama.cpp server, hosted APIs) through the `openai` client. Sampling settings,
 * `chat_template_kwargs` and the seed go in the request body; retries are ours (injectable sleep).
 * Tool calls a server left in the text (no tool parser configured) are read from it; reasoning comes
 * from `reasoning_content`/`reasoning` or a `<think>` block.
 */
import OpenAI from "openai";
import type { FunctionTool } from "../../tools/define-tool.ts";
import { parseCompletion } from "../formats/parse-completion.ts";
import { splitThink } from "../formats/think.ts";
import { callId, callsSoFar } from "../tool-calls.ts";
import type { ChatMessage, ChatToolCall, Policy, PolicyTurn } from "../types.ts";
import { assistantFromParsed } from "./assistant-message.ts";
import { nodeHttpFetch } from "./node-http-fetch.ts";
import { preflight } from "./preflight.ts";
import { withRetries } from "./retry.ts";
import type { ProviderSettings } from "./settings.ts";

export function createOpenAIChatPolicy(baseURL: string, model: string, settings: ProviderSettings): Policy {
  const client = new OpenAI({
    baseURL,
    apiKey: settings.apiKey,
    maxRetries: 0,
    timeout: settings.timeoutMs,
    fetch: nodeHttpFetch,
  });
  return {
    name: `openai:${baseURL}#${model}`,
    preflight: (signal) =>
      preflight(
        {
          client,
          baseURL,
          model,
          timeoutMs: settings.timeoutMs,
          probe: (options) =>
            client.chat.completions.create(
              { model, messages: [{ role: "user", content: "ping" }], max_tokens: 1 },
              options,
            ),
        },
        signal,
      ),
    async next(messages, tools, { signal, sample }) {
      const started = performance.now();
      const body = {
        model,
        messages: messages.map(toWire),
        tools,
        tool_choice: "auto",
        ...samplingBody(settings, sample),
      } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming;
      const result = await withRetries(
        (request) => client.chat.completions.create(body, { signal: request }),
        {
          retries: settings.retries,
          sleep: settings.sleep,
          signal,
        },
      );
      const latencyMs = performance.now() - started;
      if (!result.ok)
        return {
          message: { role: "assistant", content: null },
          latencyMs,
          error: result.error,
          attempts: result.attempts,
        };
      return { ...toTurn(result.value, callsSoFar(messages), tools, latencyMs), attempts: result.attempts };
    },
  };
}

/**
 * Sampling fields of a request body (shared with raw: completions). The seed is offset by the sample
 * number, so that k samples of a task are k different draws that each reproduce.
 */
export function samplingBody(settings: ProviderSettings, sample = 0): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (settings.temperature !== undefined) body.temperature = settings.temperature;
  if (settings.topP !== undefined) body.top_p = settings.topP;
  if (settings.maxTokens !== undefined) body.max_tokens = settings.maxTokens;
  if (settings.seed !== undefined) body.seed = settings.seed + sample;
  if (settings.chatTemplateKwargs) body.chat_template_kwargs = settings.chatTemplateKwargs;
  return body;
}

/** A chat message as the API takes it (our `reasoning` is not sent back, as Qwen templates drop it). */
function toWire(message: ChatMessage): Record<string, unknown> {
  if (message.role === "tool")
    return { role: "tool", tool_call_id: message.tool_call_id ?? "", content: message.content ?? "" };
  if (message.role === "assistant") {
    const wire: Record<string, unknown> = { role: "assistant", content: message.content };
    if (message.tool_calls?.length) wire.tool_calls = message.tool_calls;
    return wire;
  }
  return { role: message.role, content: message.content ?? "" };
}

interface WireMessage {
  content?: unknown;
  tool_calls?: unknown;
  reasoning_content?: unknown;
  reasoning?: unknown;
}

function toTurn(
  completion: OpenAI.ChatCompletion,
  before: number,
  tools: FunctionTool[],
  latencyMs: number,
): PolicyTurn {
  const withTools = tools.length > 0;
  const usage = completion.usage
    ? {
        usage: {
          promptTokens: completion.usage.prompt_tokens ?? 0,
          completionTokens: completion.usage.completion_tokens ?? 0,
        },
      }
    : {};
  const wire = completion.choices?.[0]?.message as WireMessage | undefined;
  if (!wire)
    return {
      message: { role: "assistant", content: null },
      latencyMs,
      ...usage,
      error: { type: "invalid_response", message: "The response has no choices[0].message." },
    };
  const raw = typeof wire.content === "string" ? wire.content : undefined;
  const calls = Array.isArray(wire.tool_calls)
    ? wire.tool_calls.map((c, i) => toToolCall(c, before + i + 1))
    : [];
  const serverReasoning = [wire.reasoning_content, wire.reasoning].find((r) => typeof r === "string") as
    | string
    | undefined;
  let message: ChatMessage;
  let problems: string[] = [];
  if (calls.length === 0 && withTools && raw?.includes("<tool_call>")) {
    const parsed = parseCompletion(raw, tools);
    message = assistantFromParsed(parsed, before);
    problems = [
      "tool calls were read from the message text (the server did not parse them)",
      ...parsed.problems,
    ];
  } else {
    const { reasoning, rest } = splitThink(raw ?? "");
    message = { role: "assistant", content: raw === undefined ? null : rest.trim() };
    if (calls.length > 0) message.tool_calls = calls;
    if (reasoning !== undefined) message.reasoning = reasoning;
  }
  if (serverReasoning !== undefined && message.reasoning === undefined) message.reasoning = serverReasoning;
  return {
    message,
    ...(raw !== undefined ? { raw } : {}),
    ...usage,
    latencyMs,
    ...(problems.length > 0 ? { problems } : {}),
  };
}

/** A tool call as the server sent it, made well-formed without changing what the model said. */
function toToolCall(value: unknown, position: number): ChatToolCall {
  const call = (value ?? {}) as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
  const args = call.function?.arguments;
  return {
    id: typeof call.id === "string" && call.id ? call.id : callId(position),
    type: "function",
    function: {
      name: typeof call.function?.name === "string" ? call.function.name : "",
      arguments:
        typeof args === "string" ? args : args === undefined || args === null ? "" : JSON.stringify(args),
    },
  };
}
