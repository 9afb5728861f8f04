/**
 * Splitting a completion into its reasoning (`<think>…</think>`) and the rest. Handles a generation
 * prompt that opened the block (Qwen3.5 prefills `<think>\n`), an empty block (thinking off) and a block
 * left open by a cut-off generation; like vLLM's Qwen3 reasoning parser, a `<tool_call>` inside an
 * unclosed block ends the reasoning.
 */
export interface ThinkSplit {
  reasoning?: string;
  rest: string;
}

export function splitThink(text: string): ThinkSplit {
  const open = text.indexOf("<think>");
  const close = text.indexOf("</think>");
  if (close !== -1 && (open === -1 || open < close)) {
    const start = open === -1 ? 0 : open + "<think>".length;
    const before = open === -1 ? "" : text.slice(0, open);
    return {
      reasoning: text.slice(start, close).replace(/^\n+|\n+$/g, ""),
      rest: before + text.slice(close + "</think>".length).replace(/^\n+/, ""),
    };
  }
  if (open !== -1) {
    const call = text.indexOf("<tool_call>", open);
    const end = call === -1 ? text.length : call;
    return {
      reasoning: text.slice(open + "<think>".length, end).replace(/^\n+|\n+$/g, ""),
      rest: text.slice(0, open) + text.slice(end),
    };
  }
  return { rest: text };
}
