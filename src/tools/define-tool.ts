/**
 * defineTool: an agent tool bound to one operation. The tool's JSON Schema is derived from the
 * operation's own zod schemas (path + query parameters and the body merged into one argument object,
 * keeping the body's nesting), so there is never a second, hand-written schema to drift.
 */
import { z } from "zod";
import type { Operation } from "../sandbox/define-operation.ts";
import { findOperation } from "../sandbox/operations.ts";

/** An OpenAI function tool: `{type:"function", function:{name, description, parameters}}`. */
export interface FunctionTool {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema };
}

export type JsonSchema = Record<string, unknown>;

export interface ToolSpec {
  name: string;
  operationId: string;
  /** Optional text after the operation's summary: where argument values come from, what to expect. */
  hint?: string;
  /** For operations whose body is not an object (e.g. a list of labels): the argument that carries it. */
  bodyArg?: string;
  /** Query parameters the agent has no use for; hidden from the schema. */
  hide?: string[];
}

/** A tool ready to offer and execute. */
export interface Tool {
  name: string;
  operation: Operation;
  description: string;
  parameters: JsonSchema;
  /** Splits tool arguments into the operation's params and body. */
  toInput(args: Record<string, unknown>): { params: Record<string, unknown>; body: unknown };
}

export function defineTool(spec: ToolSpec): Tool {
  const operation = findOperation(spec.operationId);
  if (!operation) throw new Error(`Tool ${spec.name}: no operation ${spec.operationId}`);
  const params = objectSchema(operation.params);
  const paramNames = new Set(Object.keys(params.properties));
  const hidden = new Set(spec.hide ?? []);
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  for (const [name, schema] of Object.entries(params.properties)) {
    if (hidden.has(name)) continue;
    properties[name] = schema;
    if (params.required.includes(name)) required.add(name);
  }
  let bodyNames = new Set<string>();
  let sharedNames: string[] = [];
  if (operation.body) {
    const body = toJsonSchema(operation.body);
    if (spec.bodyArg) {
      properties[spec.bodyArg] = body;
      required.add(spec.bodyArg);
    } else {
      const { properties: bodyProps, required: bodyRequired } = objectSchema(operation.body);
      bodyNames = new Set(Object.keys(bodyProps).filter((n) => !paramNames.has(n)));
      sharedNames = Object.keys(bodyProps).filter((n) => paramNames.has(n));
      for (const name of bodyNames) {
        properties[name] = bodyProps[name]!;
        if (bodyRequired.includes(name)) required.add(name);
      }
    }
  }
  const description = [operation.summary, spec.hint].filter(Boolean).join(" ");
  return {
    name: spec.name,
    operation,
    description,
    parameters: { type: "object", properties, required: [...required] },
    toInput(args) {
      const input: Record<string, unknown> = {};
      const body: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(args)) {
        if (bodyNames.has(name)) body[name] = value;
        else if (name !== spec.bodyArg) input[name] = value;
      }
      if (spec.bodyArg) return { params: input, body: args[spec.bodyArg] };
      if (!operation.body) return { params: input, body: undefined };
      // A body field that shares its name with a path parameter (updatePage's `id`) takes the path's value.
      for (const name of sharedNames) if (args[name] !== undefined) body[name] = args[name];
      return { params: input, body };
    },
  };
}

/** The OpenAI function-tool form of a tool. */
export function toFunctionTool(tool: Tool): FunctionTool {
  return {
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

function toJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  delete json.$schema;
  return json;
}

function objectSchema(schema: z.ZodType): { properties: Record<string, JsonSchema>; required: string[] } {
  const json = toJsonSchema(schema);
  return {
    properties: (json.properties as Record<string, JsonSchema>) ?? {},
    required: (json.required as string[]) ?? [],
  };
}
