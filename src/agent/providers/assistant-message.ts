/**
 * Building the assistant message of a turn from what a provider returned: parsed raw text (raw:,
 * local:, and tool calls a chat server left in the text), with deterministic ids for its calls.
 */
import type { ParsedCompletion } from "../formats/parse-completion.ts";
import { callId } from "../tool-calls.ts";
import type { ChatMessage } from "../types.ts";

/** The assistant message of parsed text; `before` is how many tool calls the conversation already made. */
export function assistantFromParsed(parsed: ParsedCompletion, before: number): ChatMessage {
  const message: ChatMessage = { role: "assistant", content: parsed.content };
  if (parsed.reasoning !== undefined) message.reasoning = parsed.reasoning;
  if (parsed.calls.length > 0)
    message.tool_calls = parsed.calls.map((call, i) => ({
      id: callId(before + i + 1),
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  return message;
}
