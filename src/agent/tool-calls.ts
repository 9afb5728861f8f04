/**
 * Helpers between chat messages and episode tool calls: the request an assistant tool call makes, the
 * tool message that answers it, and deterministic ids for calls that arrive without one.
 */
import type { ToolCallRequest, ToolCallResult } from "../tools/tool-call-result.ts";
import type { ChatMessage, ChatToolCall } from "./types.ts";

/** The episode request of a tool call; the arguments text is parsed (or rejected) by the executor. */
export function toRequest(call: ChatToolCall): ToolCallRequest {
  return { name: call.function?.name ?? "", arguments: call.function?.arguments ?? "" };
}

export function toolMessage(call: ChatToolCall, result: ToolCallResult): ChatMessage {
  return { role: "tool", tool_call_id: call.id, content: result.observation };
}

/**
 * An id for a call that arrives without one: `call_N`, N its 1-based position on the episode's trace, the
 * number the score's "set by call N" and every drill-down use for it.
 */
export const callId = (position: number) => `call_${position}`;

/** How many tool calls the conversation's assistant messages already made (the next one is this + 1). */
export const callsSoFar = (messages: readonly ChatMessage[]) =>
  messages.reduce((n, m) => n + (m.role === "assistant" ? (m.tool_calls?.length ?? 0) : 0), 0);

/** Arguments as the JSON text a model would emit (strings are kept as emitted). */
export function argumentsText(args: unknown): string {
  if (typeof args === "string") return args;
  return JSON.stringify(args ?? {});
}
