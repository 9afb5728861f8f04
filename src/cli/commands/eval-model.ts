/**
 * `eval` needs to be told which model to run: without --model it stops and lists the choices, instead of
 * starting a download of a default local model nobody asked for. A resumed run takes its model from
 * run.json, so there --out is enough.
 */
import { DEFAULT_LOCAL_MODEL } from "../../agent/providers/index.ts";

/** The message for a run that does not say which model to evaluate; null when it does. */
export function missingModel(flags: { model?: string; out?: string; resume: boolean }): string | null {
  if (flags.model !== undefined) return null;
  if (flags.resume && flags.out !== undefined) return null;
  if (flags.resume)
    return "--resume needs --out DIR (the run to continue; its model comes from DIR/run.json).";
  return [
    "eval needs --model, e.g.",
    "  --model openai:http://127.0.0.1:8000/v1#Qwen/Qwen3-1.7B   an OpenAI-compatible server (vLLM, SGLang, Ollama, llama-server)",
    "  --model raw:http://127.0.0.1:8000/v1#Qwen/Qwen3-1.7B      the same server's completions endpoint, prompts rendered here",
    "  --model policy:reference                                  a scripted policy: no model, no download",
    `  --model local:${DEFAULT_LOCAL_MODEL}`,
    "        embedded llama.cpp (the optional node-llama-cpp package); an hf: file is downloaded on first use",
    "        into ~/.node-llama-cpp/models (this one: roughly 1.8 GB, 1.7B weights at Q8_0's 8.5 bits each)",
  ].join("\n");
}
