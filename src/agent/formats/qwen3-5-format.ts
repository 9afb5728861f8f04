/**
 * The Qwen3.5 prompt format (XML tool calls), rendered as its chat template renders it
 * (`qwen3_5_think.jinja`): tools as JSON lines inside `<tools>` followed by the XML calling
 * instructions, the system text after them, assistant calls as
 * `<tool_call>\n<function=NAME>\n<parameter=ARG>\nVALUE\n</parameter>\n</function>\n</tool_call>`
 * (non-string values as JSON lists/objects, scalars as Python prints them), every assistant turn after
 * the last user query with its think block, and a generation prompt that opens `<think>\n`.
 */
import type { FunctionTool } from "../../tools/define-tool.ts";
import type { ChatMessage, ChatToolCall } from "../types.ts";
import { pythonJson, pythonString } from "./python-json.ts";
import { generationPrompt, lastQueryIndex, type RenderOptions, reasoningOf } from "./render-common.ts";

const INSTRUCTIONS =
  "\n\nIf you choose to call a function ONLY reply in the following format with NO suffix:\n\n<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n</parameter>\n<parameter=example_parameter_2>\nThis is the value for the second parameter\nthat can span\nmultiple lines\n</parameter>\n</function>\n</tool_call>\n\n<IMPORTANT>\nReminder:\n- Function calls MUST follow the specified format: an inner <function=...></function> block must be nested within <tool_call></tool_call> XML tags\n- Required parameters MUST be specified\n- You may provide optional reasoning for your function call in natural language BEFORE the function call, but NOT after\n- If there is no function call available, answer the question like normal with your current knowledge and do not tell the user about function calls\n</IMPORTANT>";

export function renderQwen35(
  messages: readonly ChatMessage[],
  tools: readonly FunctionTool[],
  options: RenderOptions = {},
): string {
  let out = "";
  const first = messages[0];
  const system = first?.role === "system" ? (first.content ?? "").trim() : undefined;
  if (tools.length > 0) {
    out += "<|im_start|>system\n# Tools\n\nYou have access to the following functions:\n\n<tools>";
    out += `${tools.map((t) => `\n${pythonJson(t)}`).join("")}\n</tools>${INSTRUCTIONS}`;
    if (system) out += `\n\n${system}`;
    out += "<|im_end|>\n";
  } else if (system !== undefined) {
    out += `<|im_start|>system\n${system}<|im_end|>\n`;
  }
  const lastQuery = lastQueryIndex(messages, (c) => c.trim());
  messages.forEach((message, i) => {
    let content = (message.content ?? "").trim();
    if (message.role === "user") {
      out += `<|im_start|>user\n${content}<|im_end|>\n`;
    } else if (message.role === "assistant") {
      const split = reasoningOf(message, content);
      content = split.content;
      out +=
        i > lastQuery
          ? `<|im_start|>assistant\n<think>\n${split.reasoning.trim()}\n</think>\n\n${content}`
          : `<|im_start|>assistant\n${content}`;
      (message.tool_calls ?? []).forEach((call, j) => {
        const lead = j > 0 ? "\n" : content.trim() ? "\n\n" : "";
        out += `${lead}<tool_call>\n<function=${call.function.name}>\n${renderParameters(call)}</function>\n</tool_call>`;
      });
      out += "<|im_end|>\n";
    } else if (message.role === "tool") {
      if (i > 0 && messages[i - 1]!.role !== "tool") out += "<|im_start|>user";
      out += `\n<tool_response>\n${content}\n</tool_response>`;
      if (i === messages.length - 1 || messages[i + 1]!.role !== "tool") out += "<|im_end|>\n";
    }
  });
  return out + generationPrompt("qwen3.5", options);
}

function renderParameters(call: ChatToolCall): string {
  let args: unknown;
  try {
    args = JSON.parse(call.function.arguments);
  } catch {
    return "";
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) return "";
  return Object.entries(args)
    .map(([name, value]) => {
      const text = typeof value === "object" && value !== null ? pythonJson(value) : pythonString(value);
      return `<parameter=${name}>\n${text}\n</parameter>\n`;
    })
    .join("");
}
