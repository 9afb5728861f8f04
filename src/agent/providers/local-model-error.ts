/**
 * LocalModelError: the local model could not be loaded (node-llama-cpp missing, the GGUF file absent or
 * not downloadable, llama.cpp failing to start). Its message names the file and the ways out: a local
 * path, or another provider.
 */
import { AtlasGymError } from "../../errors.ts";

export class LocalModelError extends AtlasGymError {
  override name = "LocalModelError";
  constructor(
    readonly model: string,
    readonly reason: string,
  ) {
    super(
      [
        `Cannot load the local model '${model}': ${reason}.`,
        `Pass a GGUF file you have with --model local:/path/to/${fileNameOf(model)},`,
        "or use a model server instead, e.g. --model openai:http://127.0.0.1:8000/v1#Qwen/Qwen3-1.7B (vLLM, SGLang, Ollama, llama-server --jinja).",
      ].join("\n"),
    );
  }
}

function fileNameOf(model: string): string {
  const last = model.split(/[/\\]/).at(-1) ?? "";
  return last.endsWith(".gguf") ? last : "model.gguf";
}
