/**
 * Pieces the Qwen3 and Qwen3.5 renderers share: where the last real user query is (think blocks are
 * rendered only after it), an assistant message's reasoning, and the generation prompt.
 */
import type { ChatMessage } from "../types.ts";

export interface RenderOptions {
  /** `enable_thinking` of the chat template (undefined: the template's default). */
  enableThinking?: boolean;
}

export type FormatName = "qwen3" | "qwen3.5";

/** Index of the last user message that is not a wrapped tool response (-1 when none). */
export function lastQueryIndex(
  messages: readonly ChatMessage[],
  normalize: (content: string) => string,
): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "user" || typeof message.content !== "string") continue;
    const content = normalize(message.content);
    if (!(content.startsWith("<tool_response>") && content.endsWith("</tool_response>"))) return i;
  }
  return messages.length - 1;
}

/** The reasoning of an assistant message: its own field, or a think block inside its content. */
export function reasoningOf(message: ChatMessage, content: string): { reasoning: string; content: string } {
  if (typeof message.reasoning === "string") return { reasoning: message.reasoning, content };
  if (content.includes("</think>")) {
    const before = content.split("</think>")[0]!.replace(/\n+$/, "");
    const reasoning = before.split("<think>").at(-1)!.replace(/^\n+/, "");
    return { reasoning, content: content.split("</think>").at(-1)!.replace(/^\n+/, "") };
  }
  return { reasoning: "", content };
}

/** What follows the last message: the assistant header and the think prefill. */
export function generationPrompt(format: FormatName, { enableThinking }: RenderOptions): string {
  if (enableThinking === false) return "<|im_start|>assistant\n<think>\n\n</think>\n\n";
  return format === "qwen3.5" ? "<|im_start|>assistant\n<think>\n" : "<|im_start|>assistant\n";
}

/** The part of the generation prompt that is the start of the model's own turn (parsed with its output). */
export function prefillOf(format: FormatName, options: RenderOptions): string {
  return generationPrompt(format, options).slice("<|im_start|>assistant\n".length);
}
