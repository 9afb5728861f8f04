/**
 * createPolicy: one interface for every model, chosen by a `--model` spec —
 *   openai:<base-url>#<model>   an OpenAI-compatible Chat Completions server with tool calling
 *   raw:<base-url>#<model>      a plain completions endpoint; Qwen3/Qwen3.5 prompts rendered and parsed here
 *   local:<gguf path | hf:…>    embedded llama.cpp (optional node-llama-cpp)
 *   policy:<name>               a scripted policy
 * A spec that cannot be used is a UsageError that says what a good one looks like.
 */
import { UsageError } from "../../errors.ts";
import { FORMAT_NAMES } from "../formats/index.ts";
import { SCRIPTED_POLICIES } from "../scripted/policies.ts";
import { createScriptedPolicy } from "../scripted/policy-adapter.ts";
import type { AnyPolicy } from "../types.ts";
import { createLocalPolicy, DEFAULT_LOCAL_MODEL, type LocalOptions } from "./local-llama.ts";
import { createOpenAIChatPolicy } from "./openai-chat.ts";
import { createRawCompletionsPolicy } from "./raw-completions.ts";
import { type ProviderOptions, resolveSettings } from "./settings.ts";

export { LocalModelError } from "./local-model-error.ts";
export type { ProviderOptions };
export { DEFAULT_LOCAL_MODEL };

const EXAMPLES = [
  "openai:http://127.0.0.1:8000/v1#Qwen/Qwen3-8B",
  "raw:http://127.0.0.1:8000/v1#Qwen/Qwen3-8B",
  `local:${DEFAULT_LOCAL_MODEL}`,
  "local:./models/qwen3-1.7b-q8_0.gguf",
  "policy:reference",
];

export function createPolicy(spec: string, options: ProviderOptions & LocalOptions = {}): AnyPolicy {
  const colon = spec.indexOf(":");
  const kind = colon === -1 ? "" : spec.slice(0, colon);
  const rest = colon === -1 ? "" : spec.slice(colon + 1);
  validateOptions(options);
  switch (kind) {
    case "openai":
    case "raw": {
      const { baseURL, model } = serverSpec(spec, rest);
      const settings = resolveSettings(options);
      return kind === "openai"
        ? createOpenAIChatPolicy(baseURL, model, settings)
        : createRawCompletionsPolicy(baseURL, model, settings);
    }
    case "local":
      if (!rest) throw bad(spec, "local: needs a GGUF file path or an hf:<user>/<repo>/<file>.gguf URI");
      return createLocalPolicy(rest, resolveSettings(options), options);
    case "policy": {
      if (!SCRIPTED_POLICIES.some((p) => p.name === rest))
        throw bad(
          spec,
          `there is no scripted policy '${rest}' (known: ${SCRIPTED_POLICIES.map((p) => p.name).join(", ")})`,
        );
      return createScriptedPolicy(rest);
    }
    default:
      throw bad(spec, kind ? `unknown provider '${kind}'` : "it has no provider prefix");
  }
}

function serverSpec(spec: string, rest: string): { baseURL: string; model: string } {
  const hash = rest.indexOf("#");
  if (hash === -1) throw bad(spec, "the model name is missing: write <base-url>#<model>");
  const baseURL = rest.slice(0, hash).replace(/\/+$/, "");
  const model = rest.slice(hash + 1);
  if (!model) throw bad(spec, "the model name after '#' is empty");
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw bad(spec, `'${baseURL}' is not a URL (e.g. http://127.0.0.1:8000/v1)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw bad(spec, `'${baseURL}' is not an http(s) URL`);
  return { baseURL, model };
}

function validateOptions(options: ProviderOptions & LocalOptions): void {
  const checks: [string, number | undefined, number, number][] = [
    ["temperature", options.temperature, 0, 2],
    ["top-p", options.topP, 0, 1],
    ["max-tokens", options.maxTokens, 1, 1_000_000],
    ["timeout", options.timeoutMs, 1, 86_400_000],
    ["retries", options.retries, 0, 100],
    ["parallel", options.parallel, 1, 1024],
  ];
  for (const [name, value, min, max] of checks) {
    if (value !== undefined && !(Number.isFinite(value) && value >= min && value <= max))
      throw new UsageError(`Invalid ${name} ${value}: expected a number from ${min} to ${max}.`);
  }
  if (options.seed !== undefined && !Number.isInteger(options.seed))
    throw new UsageError(`Invalid seed ${options.seed}: expected an integer.`);
  if (options.rawFormat !== undefined && !FORMAT_NAMES.includes(options.rawFormat))
    throw new UsageError(
      `Invalid raw format '${options.rawFormat}': expected one of ${FORMAT_NAMES.join(", ")}.`,
    );
}

function bad(spec: string, why: string): UsageError {
  return new UsageError(
    `Invalid --model '${spec}': ${why}.\nExamples:\n${EXAMPLES.map((e) => `  ${e}`).join("\n")}`,
  );
}
