/**
 * The raw prompt formats by name: render a conversation for a plain completion endpoint, and parse the
 * completion back into an assistant message.
 */
import type { FunctionTool } from "../../tools/define-tool.ts";
import type { ChatMessage } from "../types.ts";
import { type ParsedCompletion, parseCompletion } from "./parse-completion.ts";
import { renderQwen35 } from "./qwen3-5-format.ts";
import { renderQwen3 } from "./qwen3-format.ts";
import { type FormatName, prefillOf, type RenderOptions } from "./render-common.ts";

export type { FormatName, ParsedCompletion, RenderOptions };
export const FORMAT_NAMES: readonly FormatName[] = ["qwen3", "qwen3.5"];

export interface ChatFormat {
  name: FormatName;
  render(messages: readonly ChatMessage[], tools: readonly FunctionTool[], options?: RenderOptions): string;
  /** Parses a completion generated after `render(...)` with the same options. */
  parse(completion: string, tools: readonly FunctionTool[], options?: RenderOptions): ParsedCompletion;
}

export function chatFormat(name: FormatName): ChatFormat {
  const render = name === "qwen3" ? renderQwen3 : renderQwen35;
  return {
    name,
    render,
    parse: (completion, tools, options = {}) => parseCompletion(prefillOf(name, options) + completion, tools),
  };
}
