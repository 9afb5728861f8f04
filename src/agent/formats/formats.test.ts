// Golden transcripts for the raw Qwen formats. The .txt files were rendered from conversation.json by
// Jinja2 3.1.6 with TRL's `qwen3.jinja` and `qwen3_5_think.jinja` (Hugging Face's `tojson`: json.dumps
// with ensure_ascii=False; tool-call arguments handed to the template as parsed objects, as vLLM does).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { FunctionTool } from "../../tools/define-tool.ts";
import type { ChatMessage } from "../types.ts";
import { chatFormat, type FormatName } from "./index.ts";
import { parseCompletion } from "./parse-completion.ts";

const golden = (name: string) => readFileSync(new URL(`./golden/${name}`, import.meta.url), "utf8");
const conversation = JSON.parse(golden("conversation.json")) as {
  tools: FunctionTool[];
  messages: ChatMessage[];
};

describe.each<FormatName>(["qwen3", "qwen3.5"])("%s prompt rendering", (name) => {
  const format = chatFormat(name);
  it("matches the chat template with its default thinking", () => {
    expect(format.render(conversation.messages, conversation.tools)).toBe(golden(`${name}.txt`));
  });
  it("matches the chat template with enable_thinking=false", () => {
    expect(format.render(conversation.messages, conversation.tools, { enableThinking: false })).toBe(
      golden(`${name}-nothink.txt`),
    );
  });
  it("re-renders a parsed completion as the template renders that turn", () => {
    const completion =
      name === "qwen3"
        ? '<think>\nCheck first.\n</think>\n\nLooking.\n<tool_call>\n{"name": "jira_get_transitions", "arguments": {"issueIdOrKey": "ENG-2"}}\n</tool_call>'
        : "Check first.\n</think>\n\nLooking.\n\n<tool_call>\n<function=jira_get_transitions>\n<parameter=issueIdOrKey>\nENG-2\n</parameter>\n</function>\n</tool_call>";
    const prompt = conversation.messages.slice(0, 2);
    const parsed = format.parse(completion, conversation.tools);
    expect(parsed).toMatchObject({ reasoning: "Check first.", content: "Looking.", problems: [] });
    const message: ChatMessage = {
      role: "assistant",
      content: parsed.content,
      reasoning: parsed.reasoning,
      tool_calls: parsed.calls.map((c, i) => ({ id: `c${i}`, type: "function", function: c })),
    };
    const next = format.render([...prompt, message, { role: "tool", content: "{}" }], conversation.tools);
    expect(next).toContain(
      name === "qwen3"
        ? `<|im_start|>assistant\n<think>\n${completion.slice(8)}<|im_end|>`
        : `<think>\n${completion}<|im_end|>`,
    );
  });
});

describe("parsing Qwen3 (hermes) completions", () => {
  const tools = conversation.tools;
  it("reads several calls, text before them and a think block", () => {
    const out = parseCompletion(
      '<think>\nplan\n</think>\n\nOn it.\n<tool_call>\n{"name": "jira_get_issue", "arguments": {"issueIdOrKey": "ENG-2"}}\n</tool_call>\n<tool_call>\n{"name": "jira_get_transitions", "arguments": {"issueIdOrKey": "ENG-2"}}\n</tool_call><|im_end|>',
      tools,
    );
    expect(out).toEqual({
      content: "On it.",
      reasoning: "plan",
      calls: [
        { name: "jira_get_issue", arguments: '{"issueIdOrKey": "ENG-2"}' },
        { name: "jira_get_transitions", arguments: '{"issueIdOrKey": "ENG-2"}' },
      ],
      problems: [],
    });
  });
  it("keeps the name and the broken arguments text of broken JSON", () => {
    const out = parseCompletion(
      '<tool_call>\n{"name": "jira_get_issue", "arguments": {"issueIdOrKey": "ENG-2"\n</tool_call>',
    );
    expect(out.calls).toEqual([{ name: "jira_get_issue", arguments: '{"issueIdOrKey": "ENG-2"' }]);
    expect(out.problems).toEqual(["tool call 'jira_get_issue' is not valid JSON"]);
  });
  it("repairs a missing outer brace only when the arguments are then valid", () => {
    const out = parseCompletion('<tool_call>{"name": "x", "arguments": {"a": [1, 2]}</tool_call>');
    expect(out.calls).toEqual([{ name: "x", arguments: '{"a": [1, 2]}' }]);
  });
  it("passes arguments given as a string on as a JSON string (the executor rejects it)", () => {
    const out = parseCompletion('<tool_call>{"name": "x", "arguments": "{\\"a\\": 1}"}</tool_call>');
    expect(out.calls).toEqual([{ name: "x", arguments: '"{\\"a\\": 1}"' }]);
    expect(out.problems).toEqual(["tool call 'x' has arguments that are not an object"]);
  });
  it("leaves a block with no readable name in the text", () => {
    const out = parseCompletion("Hmm <tool_call>{oops}</tool_call> done");
    expect(out).toMatchObject({ calls: [], content: "Hmm <tool_call>{oops}</tool_call> done" });
    expect(out.problems[0]).toContain("no readable tool name");
  });
  it("reads a block cut off by the token limit", () => {
    const out = parseCompletion('<tool_call>\n{"name": "x", "arguments": {"a": 1}}');
    expect(out.calls).toEqual([{ name: "x", arguments: '{"a": 1}' }]);
    expect(out.problems).toEqual(["a <tool_call> block is not closed"]);
  });
  it("treats an empty completion as an empty answer", () => {
    expect(parseCompletion("")).toEqual({ content: "", calls: [], problems: [] });
  });
  it("ends an unclosed think block at a tool call", () => {
    const out = parseCompletion('<think>\nhmm\n<tool_call>\n{"name": "x", "arguments": {}}\n</tool_call>');
    expect(out).toMatchObject({ reasoning: "hmm", calls: [{ name: "x", arguments: "{}" }] });
  });
});

describe("parsing Qwen3.5 (XML) completions", () => {
  const tools = conversation.tools;
  it("decodes parameters by their schema type", () => {
    const out = chatFormat("qwen3.5").parse(
      'Search.\n</think>\n\n<tool_call>\n<function=jira_search_issues>\n<parameter=jql>\n123\n</parameter>\n<parameter=maxResults>\n5\n</parameter>\n<parameter=fields>\n["status"]\n</parameter>\n<parameter=validateQuery>\nFalse\n</parameter>\n</function>\n</tool_call>',
      tools,
    );
    expect(out.reasoning).toBe("Search.");
    expect(JSON.parse(out.calls[0]!.arguments)).toEqual({
      jql: "123",
      maxResults: 5,
      fields: ["status"],
      validateQuery: false,
    });
  });
  it("keeps a multi-line string value and reads an unclosed parameter", () => {
    const out = parseCompletion(
      '<tool_call>\n<function=f>\n<parameter=a>\nline 1\nline 2\n</parameter>\n<parameter=b>\n{"x": 1}\n</function>\n</tool_call>',
    );
    expect(JSON.parse(out.calls[0]!.arguments)).toEqual({ a: "line 1\nline 2", b: { x: 1 } });
  });
  it("keeps an object value that is not valid JSON as text (the executor's schema check rejects it)", () => {
    const out = parseCompletion(
      "<tool_call>\n<function=jira_transition_issue>\n<parameter=transition>\n{id: 31}\n</parameter>\n</function>\n</tool_call>",
      tools,
    );
    expect(JSON.parse(out.calls[0]!.arguments)).toEqual({ transition: "{id: 31}" });
  });
  it("leaves a block with an empty function name in the text", () => {
    const out = parseCompletion("<tool_call>\n<function=>\n</function>\n</tool_call>");
    expect(out.calls).toEqual([]);
    expect(out.content).toContain("<function=>");
  });
});
