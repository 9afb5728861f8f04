/**
 * Parsing a raw Qwen completion into reasoning, text and tool calls. Both inner forms of a
 * `<tool_call>` block are read — Qwen3's hermes JSON (`{"name": …, "arguments": {…}}`) and Qwen3.5's XML
 * (`<function=…><parameter=…>`) — whichever the model wrote. Malformed output is parsed as far as it
 * honestly can be: a call whose name can be read keeps its (possibly broken) arguments text, so the
 * executor answers it with an error the model sees and the reward scores; a block with no readable
 * name stays in the text, as vLLM's parsers leave it. Every repair or give-up is listed in `problems`.
 */
import type { FunctionTool, JsonSchema } from "../../tools/define-tool.ts";
import { pythonJson } from "./python-json.ts";
import { splitThink } from "./think.ts";

export interface ParsedCall {
  name: string;
  /** JSON text of the arguments; not valid JSON (or not an object) when the model's was not. */
  arguments: string;
}

export interface ParsedCompletion {
  /** Text outside the think block and the tool-call blocks, trimmed. */
  content: string;
  reasoning?: string;
  calls: ParsedCall[];
  problems: string[];
}

const END_TOKENS = /(<\|im_end\|>|<\|endoftext\|>)[\s\S]*$/;

export function parseCompletion(text: string, tools: readonly FunctionTool[] = []): ParsedCompletion {
  const { reasoning, rest } = splitThink(text.replace(END_TOKENS, ""));
  const calls: ParsedCall[] = [];
  const problems: string[] = [];
  const kept: string[] = [];
  let at = 0;
  while (at < rest.length) {
    const open = rest.indexOf("<tool_call>", at);
    if (open === -1) {
      kept.push(rest.slice(at));
      break;
    }
    kept.push(rest.slice(at, open));
    const start = open + "<tool_call>".length;
    const close = rest.indexOf("</tool_call>", start);
    if (close === -1) problems.push("a <tool_call> block is not closed");
    const end = close === -1 ? rest.length : close;
    const block = rest.slice(start, end);
    const call = block.includes("<function=")
      ? parseXmlCall(block, tools, problems)
      : parseJsonCall(block, problems);
    if (call) calls.push(call);
    else kept.push(rest.slice(open, close === -1 ? rest.length : close + "</tool_call>".length));
    at = close === -1 ? rest.length : close + "</tool_call>".length;
  }
  return {
    content: kept.join("").trim(),
    ...(reasoning !== undefined ? { reasoning } : {}),
    calls,
    problems,
  };
}

/** Qwen3 (hermes): `{"name": "fn", "arguments": {...}}`. */
function parseJsonCall(block: string, problems: string[]): ParsedCall | null {
  const inner = block.trim();
  try {
    const value = JSON.parse(inner) as unknown;
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const { name, arguments: args } = value as { name?: unknown; arguments?: unknown };
      if (typeof name === "string") {
        if (args === undefined) problems.push(`tool call '${name}' has no "arguments"; taken as {}`);
        else if (typeof args !== "object" || args === null || Array.isArray(args))
          problems.push(`tool call '${name}' has arguments that are not an object`);
        return { name, arguments: args === undefined ? "{}" : pythonJson(args) };
      }
    }
  } catch {
    // Broken JSON: read what can be read below.
  }
  const name = /"name"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(inner)?.[1];
  if (name === undefined) {
    problems.push("a <tool_call> block has no readable tool name; kept as text");
    return null;
  }
  problems.push(`tool call '${name}' is not valid JSON`);
  const argsText = /"arguments"\s*:\s*([\s\S]*)$/.exec(inner)?.[1]?.trim() ?? "";
  return { name, arguments: repairArguments(argsText) };
}

/** The arguments text with the outer object's closing brace removed, when that makes it valid JSON. */
function repairArguments(text: string): string {
  for (const candidate of [text, text.replace(/}\s*$/, "")]) {
    try {
      return pythonJson(JSON.parse(candidate));
    } catch {
      // try the next candidate
    }
  }
  return text;
}

/** Qwen3.5 (XML): `<function=fn><parameter=p>value</parameter>…</function>`. */
function parseXmlCall(block: string, tools: readonly FunctionTool[], problems: string[]): ParsedCall | null {
  const match = /<function=([^>\n]*)>/.exec(block);
  const name = match?.[1]?.trim();
  if (!match || !name) {
    problems.push("a <tool_call> block has no readable function name; kept as text");
    return null;
  }
  const body = block.slice(match.index + match[0].length);
  if (!body.includes("</function>")) problems.push(`tool call '${name}' is missing </function>`);
  const properties = propertiesOf(tools, name);
  const args: Record<string, unknown> = {};
  const param = /<parameter=([^>\n]*)>\n?([\s\S]*?)\n?(?:<\/parameter>|(?=<parameter=|<\/function>|$))/g;
  for (const [, rawName, value] of body.matchAll(param)) {
    const key = rawName!.trim();
    args[key] = decodeValue(value!, properties[key]);
  }
  return { name, arguments: pythonJson(args) };
}

function propertiesOf(tools: readonly FunctionTool[], name: string): Record<string, JsonSchema> {
  const tool = tools.find((t) => t.function.name === name);
  return (tool?.function.parameters.properties as Record<string, JsonSchema> | undefined) ?? {};
}

/** A parameter's text as its schema type: strings stay text, other values are JSON (or Python literals). */
function decodeValue(text: string, schema: JsonSchema | undefined): unknown {
  const types = typesOf(schema);
  if (types.has("string")) return types.has("null") && (text === "null" || text === "None") ? null : text;
  try {
    return JSON.parse(text);
  } catch {
    const literal: Record<string, unknown> = { True: true, False: false, None: null };
    return text in literal ? literal[text] : text;
  }
}

/** The JSON types a property schema allows (`type`, a list of types, or `anyOf` branches). */
function typesOf(schema: JsonSchema | undefined): Set<string> {
  const types = new Set<string>();
  if (!schema) return types;
  const type = schema.type;
  for (const t of Array.isArray(type) ? type : [type]) if (typeof t === "string") types.add(t);
  for (const branch of (schema.anyOf as JsonSchema[] | undefined) ?? [])
    for (const t of typesOf(branch)) types.add(t);
  return types;
}
