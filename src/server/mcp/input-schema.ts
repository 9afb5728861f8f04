/**
 * The MCP input schema of a tool. McpServer.registerTool (SDK 1.32.2) takes only zod schemas, which it
 * turns into JSON Schema itself for `tools/list` and parses arguments with. Each tool already has its
 * JSON Schema (derived once from the operation's zod schemas), so instead of a second conversion it is
 * carried as the metadata of a zod object that accepts any object: zod's JSON Schema writer merges a
 * schema's metadata into its output, so `tools/list` shows the tool's schema (plus a `$schema` line),
 * and the arguments reach the tool unchanged, to be checked by the tool and the operation (which
 * answer bad input with the vendor's 400 as an MCP tool error, not a bare "Input validation error").
 */
import { z } from "zod";
import type { JsonSchema } from "../../tools/define-tool.ts";

const cache = new WeakMap<JsonSchema, z.ZodType>();

export function inputSchemaFor(parameters: JsonSchema): z.ZodType {
  let schema = cache.get(parameters);
  if (!schema) {
    // `additionalProperties: undefined` drops the `{}` zod writes for a loose object from the JSON output.
    schema = z.looseObject({}).meta({ ...parameters, additionalProperties: undefined });
    cache.set(parameters, schema);
  }
  return schema;
}
