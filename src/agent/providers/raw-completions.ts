/**
 * `raw:<base-url>#<model>`: a plain `/v1/completions` endpoint without server-side tool parsing. The
 * conversation is rendered in the model's own prompt format (Qwen3 hermes or Qwen3.5 XML), and the
 * completion is parsed back (think block, text, tool calls) with the same format.
 */
import OpenAI from "openai";
import { chatFormat, type FormatName } from "../formats/index.ts";
import { callsSoFar } from "../tool-calls.ts";
import type { Policy } from "../types.ts";
import { assistantFromParsed } from "./assistant-message.ts";
import { nodeHttpFetch } from "./node-http-fetch.ts";
import { samplingBody } from "./openai-chat.ts";
import { preflight } from "./preflight.ts";
import { withRetries } from "./retry.ts";
import { enableThinking, type ProviderSettings } from "./settings.ts";

export const STOP = ["<|im_end|>", "<|endoftext|>"];

export function defaultRawFormat(model: string): FormatName {
  return /qwen3[._-]?5/i.test(model) ? "qwen3.5" : "qwen3";
}

export function createRawCompletionsPolicy(
  baseURL: string,
  model: string,
  settings: ProviderSettings,
): Policy {
  const client = new OpenAI({
    baseURL,
    apiKey: settings.apiKey,
    maxRetries: 0,
    timeout: settings.timeoutMs,
    fetch: nodeHttpFetch,
  });
  const format = chatFormat(settings.rawFormat ?? defaultRawFormat(model));
  const renderOptions = { enableThinking: enableThinking(settings) };
  return {
    name: `raw:${baseURL}#${model}`,
    preflight: (signal) =>
      preflight(
        {
          client,
          baseURL,
          model,
          timeoutMs: settings.timeoutMs,
          probe: (options) => client.completions.create({ model, prompt: "ping", max_tokens: 1 }, options),
        },
        signal,
      ),
    async next(messages, tools, { signal, sample }) {
      const started = performance.now();
      const prompt = format.render(messages, tools, renderOptions);
      const { chat_template_kwargs: _local, ...sampling } = samplingBody(settings, sample);
      const body = { model, prompt, stop: STOP, ...sampling } as OpenAI.CompletionCreateParamsNonStreaming;
      const result = await withRetries((request) => client.completions.create(body, { signal: request }), {
        retries: settings.retries,
        sleep: settings.sleep,
        signal,
      });
      const latencyMs = performance.now() - started;
      const attempts = result.attempts;
      if (!result.ok)
        return { message: { role: "assistant", content: null }, latencyMs, error: result.error, attempts };
      const completion = result.value;
      const usage = completion.usage
        ? {
            usage: {
              promptTokens: completion.usage.prompt_tokens,
              completionTokens: completion.usage.completion_tokens,
            },
          }
        : {};
      const raw = completion.choices?.[0]?.text;
      if (typeof raw !== "string")
        return {
          message: { role: "assistant", content: null },
          latencyMs,
          ...usage,
          error: { type: "invalid_response", message: "The response has no choices[0].text." },
          attempts,
        };
      const parsed = format.parse(raw, tools, renderOptions);
      const problems = parsed.problems.length > 0 ? { problems: parsed.problems } : {};
      return {
        message: assistantFromParsed(parsed, callsSoFar(messages)),
        raw,
        ...usage,
        latencyMs,
        ...problems,
        attempts,
      };
    },
  };
}
