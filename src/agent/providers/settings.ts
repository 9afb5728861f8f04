/**
 * Provider options as callers pass them (CLI flags, config), and the settings a provider runs with.
 */
import type { FormatName } from "../formats/index.ts";
import type { Sleep } from "./retry.ts";

export interface ProviderOptions {
  /** Environment variable holding the API key (default OPENAI_API_KEY; unset → "EMPTY"). */
  apiKeyEnv?: string;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  seed?: number;
  /** Sent as `chat_template_kwargs` (openai:); `enable_thinking` also shapes raw: and local: prompts. */
  chatTemplateKwargs?: Record<string, unknown>;
  /** Per request (default 300 000 ms). */
  timeoutMs?: number;
  /** Retries after a failed request (default 4). */
  retries?: number;
  /** Prompt format of raw: (default: "qwen3.5" when the model name says 3.5, else "qwen3"). */
  rawFormat?: FormatName;
  /** Injectable sleep for retry backoff (tests). */
  sleep?: Sleep;
  /** Environment to read the API key from (default process.env). */
  env?: Record<string, string | undefined>;
}

export interface ProviderSettings extends Omit<ProviderOptions, "apiKeyEnv" | "env"> {
  apiKey: string;
  timeoutMs: number;
}

export const DEFAULT_TIMEOUT_MS = 300_000;

export function resolveSettings(options: ProviderOptions): ProviderSettings {
  const { apiKeyEnv = "OPENAI_API_KEY", env = process.env, ...rest } = options;
  return { ...rest, apiKey: env[apiKeyEnv] || "EMPTY", timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS };
}

/** `enable_thinking` from the chat-template kwargs, when given as a boolean. */
export function enableThinking(settings: ProviderOptions): boolean | undefined {
  const value = settings.chatTemplateKwargs?.enable_thinking;
  return typeof value === "boolean" ? value : undefined;
}
