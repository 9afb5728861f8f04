/**
 * defineOperation: the one declaration of a simulated API operation. Its operationId, method and path
 * are exactly those of Atlassian's published OpenAPI document; its zod schemas are the single source
 * from which the REST route's validation, the agent tool's JSON Schema, the MCP schema and the
 * payload-validity check of the reward are all derived.
 */
import type { z } from "zod";
import type { ErrorDialect } from "./api-error.ts";
import type { Site, TableName } from "./site.ts";

/** Which Atlassian API an operation belongs to; also its error dialect. */
export type ApiFamily = ErrorDialect;

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** What a handler knows about the caller: where the site is served and who is calling. */
export interface OperationContext {
  /** Absolute base URL of the site, e.g. `http://127.0.0.1:4010/s/ep-1`; `self` links start with it. */
  baseUrl: string;
  /** The accountId of the authenticated user. */
  accountId: string;
}

/** A handler's answer when the status differs from the operation's default (e.g. 200 vs 201 on upsert). */
export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
  ) {}
}

export interface OperationSpec<P extends z.ZodType, B extends z.ZodType | undefined> {
  /** operationId exactly as in the official spec. */
  operationId: string;
  api: ApiFamily;
  method: HttpMethod;
  /** The real path with `{param}` placeholders, e.g. `/rest/api/3/issue/{issueIdOrKey}`. */
  path: string;
  /** One line on what the operation does; tool descriptions start from it. */
  summary: string;
  /** `write` operations run in a transaction and count as mutations in rewards. */
  effect: "read" | "write";
  /** Status of a successful answer. */
  status: number;
  /** Path and query parameters. */
  params: P;
  /** The JSON request body, if the operation takes one. */
  body?: B;
  /** Which input fields are metadata (the rest are content); absent: all content. */
  fieldClasses?: FieldClasses;
  handler: (
    site: Site,
    input: { params: z.output<P>; body: B extends z.ZodType ? z.output<B> : undefined },
    ctx: OperationContext,
  ) => unknown;
}

/**
 * The classes of a write's input fields, declared once with the operation: `metadata` fields
 * (identifiers and integration metadata an agent may choose freely, e.g. a remote link's `globalId`)
 * land in the record of `table` under the same names; every other input field is content, which a
 * reader sees and a task must ask for.
 */
export interface FieldClasses {
  table: TableName;
  metadata: readonly string[];
}

/** An operation with its types erased, as registries and generic layers hold it. */
export interface Operation {
  operationId: string;
  api: ApiFamily;
  method: HttpMethod;
  path: string;
  summary: string;
  effect: "read" | "write";
  status: number;
  params: z.ZodType;
  body?: z.ZodType;
  fieldClasses?: FieldClasses;
  handler: (site: Site, input: { params: unknown; body: unknown }, ctx: OperationContext) => unknown;
}

export function defineOperation<P extends z.ZodType, B extends z.ZodType | undefined = undefined>(
  spec: OperationSpec<P, B>,
): Operation {
  return spec as unknown as Operation;
}
