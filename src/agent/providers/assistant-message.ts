/**
 * Building the assistant message of a turn from what a provider returned: parsed raw text (raw:,
 * local:, and tool calls a chat server left in the text), with deterministic ids for its calls.
 */
import type { ParsedCompletion } from "../formats/parse-completion.ts";
import { callId } from "../tool-calls.ts";
import type { ChatMessage } from "../types.ts";

/** The turn number of the next assistant message (used in call ids). */
export const turnIndex = (messages: readonly ChatMessage[]) =>
  messages.filter((m) => m.role === "assistant").length;

export function assistantFromParsed(parsed: ParsedCompletion, turn: number): ChatMessage {
  const message: ChatMessage = { role: "assistant", content: parsed.content };
  if (parsed.reasoning !== undefined) message.reasoning = parsed.reasoning;
  if (parsed.calls.length > 0)
    message.tool_calls = parsed.calls.map((call, i) => ({
      id: callId(turn, i),
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  return message;
}
