/**
 * defineTool: an agent tool bound to one operation. The tool's JSON Schema is derived from the
 * operation's own zod schemas (path + query parameters and the body merged into one argument object,
 * keeping the body's nesting), so there is never a second, hand-written schema to drift.
 *
 * Alias surfaces (the argument shapes of popular Atlassian MCP servers, src/tools/aliases/) add two
 * optional fields: `args`, a zod schema of the alias's own arguments (built from the operation's field
 * schemas where an argument is only renamed), and `map`, which turns validated arguments into the REST
 * input (and may read the site to resolve names, e.g. a space key to its id). The REST input is still
 * validated by the operation's own schemas when the call runs.
 */
import { z } from "zod";
import { ApiError, dialectError } from "../sandbox/api-error.ts";
import type { Operation } from "../sandbox/define-operation.ts";
import { findOperation } from "../sandbox/operations.ts";
import type { Site } from "../sandbox/site.ts";

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
  /** Replaces the operation's summary at the start of the description (alias surfaces). */
  description?: string;
  /** Alias surfaces: the schema of the tool's own arguments, when they differ from the REST payload. */
  args?: z.ZodType;
  /** Alias surfaces: maps arguments that passed `args` to the operation input; may throw an ApiError. */
  map?: (args: Record<string, unknown>, site: Site) => ToolInput;
}

/** An operation input: REST path + query parameters and the JSON body. */
export interface ToolInput {
  params: Record<string, unknown>;
  body: unknown;
}

/** Arguments an alias tool's own schema rejects: a 400 in the operation's error dialect. */
export class InvalidToolArgumentsError extends ApiError {}

/** A tool ready to offer and execute. */
export interface Tool {
  name: string;
  operation: Operation;
  description: string;
  parameters: JsonSchema;
  /**
   * Maps tool arguments to the operation's params and body. Alias tools may throw an ApiError (an
   * InvalidToolArgumentsError for arguments their schema rejects, or a vendor error from a lookup);
   * they need the site the call will run on, default tools do not.
   */
  toInput(args: Record<string, unknown>, site?: Site): ToolInput;
}

export function defineTool(spec: ToolSpec): Tool {
  const operation = findOperation(spec.operationId);
  if (!operation) throw new Error(`Tool ${spec.name}: no operation ${spec.operationId}`);
  if (spec.args || spec.map) return defineAliasTool(spec, operation);
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
  const description = [spec.description ?? operation.summary, spec.hint].filter(Boolean).join(" ");
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

/** A tool with its own argument schema and mapping (see the module comment). */
function defineAliasTool(spec: ToolSpec, operation: Operation): Tool {
  const { args, map } = spec;
  if (!args || !map) throw new Error(`Tool ${spec.name}: an alias tool needs both args and map`);
  const parameters = toJsonSchema(args);
  return {
    name: spec.name,
    operation,
    description: [spec.description ?? operation.summary, spec.hint].filter(Boolean).join(" "),
    parameters,
    toInput(raw, site) {
      if (!site) throw new Error(`Tool ${spec.name} maps its arguments against a site; pass it to toInput`);
      const parsed = args.safeParse(raw);
      if (parsed.success) return map(parsed.data as Record<string, unknown>, site);
      const problems = parsed.error.issues.map((i) =>
        i.path.length > 0 ? `'${i.path.join(".")}': ${i.message}` : i.message,
      );
      const error = dialectError(
        operation.api,
        400,
        `Invalid arguments for ${spec.name}: ${problems.join("; ")}`,
      );
      throw new InvalidToolArgumentsError(error.status, error.body);
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

/** Bounds that only restate an integer's own range (int32, or a safe integer): noise in a model's prompt. */
const RANGE_MINIMA = new Set([-2147483648, Number.MIN_SAFE_INTEGER]);
const RANGE_MAXIMA = new Set([2147483647, Number.MAX_SAFE_INTEGER]);

/** An integer's JSON Schema without the bounds that merely restate its range (see above). */
function withoutRangeBounds({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void {
  if (jsonSchema.type !== "integer") return;
  if (RANGE_MINIMA.has(jsonSchema.minimum as number)) delete jsonSchema.minimum;
  if (RANGE_MAXIMA.has(jsonSchema.maximum as number)) delete jsonSchema.maximum;
}

function toJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io: "input",
    unrepresentable: "any",
    override: withoutRangeBounds,
  }) as JsonSchema;
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
