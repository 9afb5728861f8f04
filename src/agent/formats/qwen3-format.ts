/**
 * The Qwen3 prompt format (hermes tool calls), rendered as the model's chat template renders it
 * (`qwen3.jinja`): tools as JSON lines inside `<tools>` in the system turn, assistant calls as
 * `<tool_call>\n{"name": …, "arguments": …}\n</tool_call>`, tool results as a user turn of
 * `<tool_response>` blocks, think blocks kept for assistant turns after the last user query.
 */
import type { FunctionTool } from "../../tools/define-tool.ts";
import type { ChatMessage } from "../types.ts";
import { pythonJson } from "./python-json.ts";
import { generationPrompt, lastQueryIndex, type RenderOptions, reasoningOf } from "./render-common.ts";

const TOOLS_HEADER =
  "# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>";
const TOOLS_FOOTER =
  '\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n';

export function renderQwen3(
  messages: readonly ChatMessage[],
  tools: readonly FunctionTool[],
  options: RenderOptions = {},
): string {
  let out = "";
  const first = messages[0];
  if (tools.length > 0) {
    out += "<|im_start|>system\n";
    if (first?.role === "system") out += `${first.content ?? ""}\n\n`;
    out += TOOLS_HEADER + tools.map((t) => `\n${pythonJson(t)}`).join("") + TOOLS_FOOTER;
  } else if (first?.role === "system") {
    out += `<|im_start|>system\n${first.content ?? ""}<|im_end|>\n`;
  }
  const lastQuery = lastQueryIndex(messages, (c) => c);
  messages.forEach((message, i) => {
    let content = message.content ?? "";
    if (message.role === "user" || (message.role === "system" && i > 0)) {
      out += `<|im_start|>${message.role}\n${content}<|im_end|>\n`;
    } else if (message.role === "assistant") {
      const split = reasoningOf(message, content);
      content = split.content;
      const reasoning = split.reasoning;
      if (i > lastQuery && (i === messages.length - 1 || reasoning)) {
        out += `<|im_start|>assistant\n<think>\n${stripNewlines(reasoning)}\n</think>\n\n${content.replace(/^\n+/, "")}`;
      } else {
        out += `<|im_start|>assistant\n${content}`;
      }
      (message.tool_calls ?? []).forEach((call, j) => {
        if ((j === 0 && content) || j > 0) out += "\n";
        out += `<tool_call>\n{"name": "${call.function.name}", "arguments": ${argumentsJson(call.function.arguments)}}\n</tool_call>`;
      });
      out += "<|im_end|>\n";
    } else if (message.role === "tool") {
      if (i === 0 || messages[i - 1]!.role !== "tool") out += "<|im_start|>user";
      out += `\n<tool_response>\n${content}\n</tool_response>`;
      if (i === messages.length - 1 || messages[i + 1]!.role !== "tool") out += "<|im_end|>\n";
    }
  });
  return out + generationPrompt("qwen3", options);
}

/** Arguments as the template prints them: servers hand the template a parsed object (`tojson`). */
function argumentsJson(text: string): string {
  try {
    return pythonJson(JSON.parse(text));
  } catch {
    return text;
  }
}

const stripNewlines = (text: string) => text.replace(/^\n+|\n+$/g, "");
