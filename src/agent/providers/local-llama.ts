/**
 * `local:<gguf path or hf:repo/file>`: embedded llama.cpp through node-llama-cpp, an optional
 * dependency (about 730 MB) loaded lazily on first use. The conversation is rendered in the model's own
 * Qwen prompt format and the completion parsed back, exactly as for raw:, so function calling works
 * the same way. A model that cannot be had becomes a LocalModelError with a message that says what to
 * do — from init(), or as a provider error on the trace when a rollout starts without init().
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { chatFormat, type FormatName } from "../formats/index.ts";
import { callsSoFar } from "../tool-calls.ts";
import type { Policy, PolicyTurn } from "../types.ts";
import { assistantFromParsed } from "./assistant-message.ts";
import { LocalModelError } from "./local-model-error.ts";
import { defaultRawFormat, STOP } from "./raw-completions.ts";
import { enableThinking, type ProviderSettings } from "./settings.ts";

/** The default model of `eval`: Qwen3-1.7B, 8-bit, from Qwen's own GGUF repository. */
export const DEFAULT_LOCAL_MODEL = "hf:Qwen/Qwen3-1.7B-GGUF/Qwen3-1.7B-Q8_0.gguf";
export const DEFAULT_LOCAL_MAX_TOKENS = 2048;

/** The part of node-llama-cpp this provider uses (an interface, so tests can stand in for it). */
export interface LlamaModule {
  getLlama(options: { gpu?: false | "auto"; build?: "never" | "auto" }): Promise<LlamaRuntime>;
  resolveModelFile(
    uri: string,
    options: {
      cli?: boolean;
      /** false: only look for a copy already downloaded. */
      download?: false;
      signal?: AbortSignal;
      onProgress?: (status: { downloadedSize: number }) => void;
    },
  ): Promise<string>;
  LlamaCompletion: new (options: {
    contextSequence: unknown;
  }) => {
    generateCompletion(input: unknown, options: Record<string, unknown>): Promise<string>;
    dispose(): void;
  };
}
interface LlamaRuntime {
  loadModel(options: { modelPath: string }): Promise<LlamaModel>;
}
interface LlamaModel {
  tokenize(text: string, specialTokens: boolean): unknown[];
  createContext(options: Record<string, unknown>): Promise<{ getSequence(): unknown }>;
  dispose(): Promise<void>;
}

export interface LocalOptions {
  /** Sequences generated in parallel (default 1). */
  parallel?: number;
  /** A download that makes no progress for this long is given up (default 30 000 ms). */
  downloadStallMs?: number;
  /** Checks that a remote model's host answers; resolves to why not, or undefined (tests stand in). */
  probe?: (model: string) => Promise<string | undefined>;
  /** Stand-in for `import("node-llama-cpp")` (tests). */
  importModule?: () => Promise<LlamaModule>;
}

export function createLocalPolicy(
  model: string,
  settings: ProviderSettings,
  options: LocalOptions = {},
): Policy & {
  init(): Promise<void>;
  close(): Promise<void>;
} {
  const format = chatFormat((settings.rawFormat ?? defaultRawFormat(model)) as FormatName);
  const renderOptions = { enableThinking: enableThinking(settings) };
  const parallel = Math.max(1, options.parallel ?? 1);
  let loading: Promise<Loaded> | undefined;
  const load = () => {
    loading ??= loadModel(model, parallel, options);
    return loading;
  };
  return {
    name: `local:${model}`,
    init: async () => {
      await load();
    },
    close: async () => {
      if (loading) await (await loading.catch(() => undefined))?.model.dispose();
    },
    async next(messages, tools, { signal, sample }): Promise<PolicyTurn> {
      const started = performance.now();
      let loaded: Loaded;
      try {
        loaded = await load();
      } catch (error) {
        const message = error instanceof LocalModelError ? error.message : String(error);
        return {
          message: { role: "assistant", content: null },
          latencyMs: 0,
          error: { type: "model_unavailable", message },
        };
      }
      const sequence = await loaded.acquire();
      let raw: string;
      try {
        const completion = new loaded.module.LlamaCompletion({ contextSequence: sequence });
        const prompt = format.render(messages, tools, renderOptions);
        raw = await completion.generateCompletion(loaded.model.tokenize(prompt, true), {
          maxTokens: settings.maxTokens ?? DEFAULT_LOCAL_MAX_TOKENS,
          temperature: settings.temperature,
          topP: settings.topP,
          seed: settings.seed === undefined ? undefined : settings.seed + (sample ?? 0),
          customStopTriggers: STOP,
          signal,
          stopOnAbortSignal: true,
        });
        completion.dispose();
      } catch (error) {
        const latencyMs = performance.now() - started;
        return {
          message: { role: "assistant", content: null },
          latencyMs,
          error: { type: "generation_failed", message: reasonOf(error) },
        };
      } finally {
        loaded.release(sequence);
      }
      const parsed = format.parse(raw, tools, renderOptions);
      return {
        message: assistantFromParsed(parsed, callsSoFar(messages)),
        raw,
        latencyMs: performance.now() - started,
        ...(parsed.problems.length > 0 ? { problems: parsed.problems } : {}),
      };
    },
  };
}

interface Loaded {
  module: LlamaModule;
  model: LlamaModel;
  acquire(): Promise<unknown>;
  release(sequence: unknown): void;
}

const importLlama = async () => (await import(/* @vite-ignore */ "node-llama-cpp" as string)) as LlamaModule;

async function loadModel(model: string, parallel: number, options: LocalOptions): Promise<Loaded> {
  const isRemote = /^(hf:|https?:)/.test(model);
  if (!isRemote && !existsSync(resolve(model)))
    throw new LocalModelError(model, `there is no file at ${resolve(model)}`);
  let module: LlamaModule;
  try {
    module = await (options.importModule ?? importLlama)();
  } catch (error) {
    const missing = (error as { code?: string }).code === "ERR_MODULE_NOT_FOUND";
    throw new LocalModelError(
      model,
      missing
        ? "node-llama-cpp is not installed (an optional dependency of about 730 MB; install it with npm install -E node-llama-cpp@3.21.1)"
        : `node-llama-cpp could not be loaded (${reasonOf(error)})`,
    );
  }
  let path = resolve(model);
  if (isRemote) {
    path = await fetchModel(module, model, options);
  }
  let loadedModel: LlamaModel;
  try {
    const llama = await module.getLlama({ gpu: "auto", build: "never" });
    loadedModel = await llama.loadModel({ modelPath: path });
  } catch (error) {
    throw new LocalModelError(model, `llama.cpp could not load ${path} (${reasonOf(error)})`);
  }
  let context: { getSequence(): unknown };
  try {
    context = await loadedModel.createContext({
      sequences: parallel,
      contextSize: { min: 4096, max: 16384 },
    });
  } catch (error) {
    throw new LocalModelError(model, `llama.cpp could not create a context for it (${reasonOf(error)})`);
  }
  const free = Array.from({ length: parallel }, () => context.getSequence());
  const waiting: ((sequence: unknown) => void)[] = [];
  return {
    module,
    model: loadedModel,
    acquire: () => (free.length > 0 ? Promise.resolve(free.pop()) : new Promise((r) => waiting.push(r))),
    release: (sequence) => {
      const next = waiting.shift();
      if (next) next(sequence);
      else free.push(sequence);
    },
  };
}

/**
 * A remote model: the copy already downloaded if there is one (no network needed); otherwise, once its
 * host answers, a download that is given up when it makes no progress. The host is probed with a request
 * of our own first because node-llama-cpp's own cannot be cancelled: offline, it would hang, and keep
 * the process alive after the error.
 */
async function fetchModel(module: LlamaModule, model: string, options: LocalOptions): Promise<string> {
  try {
    return await module.resolveModelFile(model, { cli: false, download: false });
  } catch {
    // Not downloaded yet.
  }
  const unreachable = await (options.probe ?? probeHost)(model);
  if (unreachable)
    throw new LocalModelError(
      model,
      `it is not on this machine and could not be downloaded (${unreachable})`,
    );
  return download(module, model, options.downloadStallMs ?? 30_000);
}

/** Why the host of a remote model does not answer, or undefined when it does. */
export async function probeHost(model: string, timeoutMs = 10_000): Promise<string | undefined> {
  const origin = model.startsWith("hf:")
    ? new URL(process.env.HF_ENDPOINT || "https://huggingface.co/").origin
    : new URL(model).origin;
  try {
    await fetch(origin, { method: "HEAD", redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    return undefined;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why =
      (error as Error).name === "TimeoutError"
        ? `no answer in ${timeoutMs / 1000} s`
        : (cause?.code ?? cause?.message ?? reasonOf(error));
    return `${origin} cannot be reached: ${why}`;
  }
}

async function download(module: LlamaModule, model: string, stallMs: number): Promise<string> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let stalled!: (error: Error) => void;
  const stall = new Promise<never>((_, reject) => {
    stalled = reject;
  });
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      controller.abort();
      stalled(new Error(`no progress for ${stallMs / 1000} s`));
    }, stallMs);
    timer.unref();
  };
  arm();
  let downloaded = 0;
  const onProgress = ({ downloadedSize }: { downloadedSize: number }) => {
    if (downloadedSize > downloaded) arm();
    downloaded = Math.max(downloaded, downloadedSize);
  };
  try {
    const cli = Boolean(process.stderr.isTTY);
    return await Promise.race([
      module.resolveModelFile(model, { cli, signal: controller.signal, onProgress }),
      stall,
    ]);
  } catch (error) {
    throw new LocalModelError(
      model,
      `it is not on this machine and could not be downloaded (${reasonOf(error)})`,
    );
  } finally {
    clearTimeout(timer);
  }
}

function reasonOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return [code, message?.split("\n")[0]].filter(Boolean).join(": ") || String(error);
}
