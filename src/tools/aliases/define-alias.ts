/**
 * defineAlias: one tool of an MCP server's surface (Atlassian's Rovo server, the community
 * mcp-atlassian server) bound to the simulated operation it stands for. An alias declares only what
 * differs from the REST payload: its argument names and shapes, and how they map to the operation input.
 * Arguments that are only renamed reuse the operation's own field schemas (`fromParams`, `fromBody`), so
 * their types and descriptions cannot drift; the payload is validated by the operation when it runs.
 */
import type { z } from "zod";
import { findOperation } from "../../sandbox/operations.ts";
import type { Site } from "../../sandbox/site.ts";
import type { ToolInput, ToolSpec } from "../define-tool.ts";

export interface AliasSpec<S extends z.ZodObject> {
  name: string;
  operationId: string;
  /** What the tool does, in the alias server's terms (replaces the operation summary). */
  description: string;
  args: S;
  map: (args: z.output<S>, site: Site) => ToolInput;
}

export function defineAlias<S extends z.ZodObject>(spec: AliasSpec<S>): ToolSpec {
  return spec as unknown as ToolSpec;
}

/** An operation's parameter schemas, by name (for arguments that keep or rename a REST parameter). */
export function fromParams<K extends string>(operationId: string, ...names: K[]): Record<K, z.ZodType> {
  return pick(operationId, "params", names);
}

/** An operation's top-level body field schemas, by name. */
export function fromBody<K extends string>(operationId: string, ...names: K[]): Record<K, z.ZodType> {
  return pick(operationId, "body", names);
}

function pick<K extends string>(operationId: string, part: "params" | "body", names: K[]) {
  const schema = findOperation(operationId)?.[part] as z.ZodObject | undefined;
  if (!schema?.shape) throw new Error(`Operation ${operationId} has no ${part} object`);
  const out = {} as Record<K, z.ZodType>;
  for (const name of names) {
    const field = schema.shape[name];
    if (!field) throw new Error(`Operation ${operationId} has no ${part} field '${name}'`);
    out[name] = field as z.ZodType;
  }
  return out;
}

/** Drops undefined values, so optional arguments the caller left out are not sent. */
export function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
