/**
 * The contract: Atlassian's published OpenAPI documents (vendored in specs/). Finds an operation by
 * method and path, and validates response bodies against the spec's schema for their status code with
 * ajv (OpenAPI's `nullable` honoured, vendor extensions ignored).
 */
import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { Endpoint } from "../../src/sandbox/presentation.ts";

export interface SpecOperation {
  operationId: string;
  /** Inline parameters, or `$ref`s to the document's `components.parameters`. */
  parameters?: object[];
  /** Inline, or a `$ref` to the document's `components.requestBodies`. */
  requestBody?: object;
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}

export interface SpecDocument {
  paths: Record<string, Record<string, SpecOperation>>;
  components: { schemas: Record<string, object> };
}

type Contract = "jira-v3" | "jira-v2" | "confluence-v2" | "confluence-v1" | "confluence-v1-2021";

const FILES: Record<Contract, { file: string; prefix: string }> = {
  "jira-v3": { file: "jira-platform-v3.openapi.json", prefix: "" },
  "jira-v2": { file: "jira-platform-v2.openapi.json", prefix: "" },
  "confluence-v2": { file: "confluence-v2.openapi.json", prefix: "/wiki/api/v2" },
  // Confluence v1: the current document where it still has the operation, else the 2021 copy (content
  // and space reads that Atlassian dropped from its document while clients still call them).
  "confluence-v1": { file: "confluence-v1.openapi.json", prefix: "" },
  "confluence-v1-2021": { file: "confluence-v1.openapi.2021-11.json", prefix: "" },
};

/** Which published document is the contract for an endpoint. */
export function contractOf(op: Pick<Endpoint, "api" | "method" | "path">): Contract {
  if (op.api === "jira") return op.path.startsWith("/rest/api/2/") ? "jira-v2" : "jira-v3";
  if (op.api === "confluence") return "confluence-v2";
  return load("confluence-v1").doc.paths[op.path]?.[op.method.toLowerCase()]
    ? "confluence-v1"
    : "confluence-v1-2021";
}

const specs = new Map<Contract, { doc: SpecDocument; ajv: Ajv }>();
const validators = new Map<string, ValidateFunction | null>();

function load(api: Contract) {
  let entry = specs.get(api);
  if (!entry) {
    const url = new URL(`../../specs/${FILES[api].file}`, import.meta.url);
    const doc = correctComponents(JSON.parse(readFileSync(url, "utf8")) as SpecDocument);
    const ajv = new Ajv({ strict: false, allErrors: true, discriminator: false, validateFormats: true });
    addFormats.default(ajv);
    ajv.addSchema({ components: doc.components }, "spec");
    entry = { doc, ajv };
    specs.set(api, entry);
  }
  return entry;
}

/** The spec's path for an operation's real path (Confluence v2 paths are relative to /wiki/api/v2). */
export function specPath(op: Pick<Endpoint, "api" | "method" | "path">): string {
  return op.path.slice(FILES[contractOf(op)].prefix.length);
}

/** The spec operation with this method and path, if the contract has it. */
export function findSpecOperation(op: Pick<Endpoint, "api" | "method" | "path">): SpecOperation | undefined {
  return load(contractOf(op)).doc.paths[specPath(op)]?.[op.method.toLowerCase()];
}

/** The published document an endpoint is described in (its `$ref`s point into it). */
export function specDocumentOf(op: Pick<Endpoint, "api" | "method" | "path">): SpecDocument {
  return load(contractOf(op)).doc;
}

/** Validates a response body; returns null when it conforms (or the spec gives no schema), else the errors. */
export function responseViolations(op: Endpoint, status: number, body: unknown): string | null {
  const key = `${op.api} ${op.method} ${op.path} ${status}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    const { ajv } = load(contractOf(op));
    const schema =
      CORRECTIONS[key] ??
      findSpecOperation(op)?.responses[String(status)]?.content?.["application/json"]?.schema;
    validate = schema && Object.keys(schema).length > 0 ? ajv.compile(rewriteRefs(schema)) : null;
    validators.set(key, validate);
  }
  if (!validate || validate(body)) return null;
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`).join("; ");
}

/**
 * Where a published document contradicts itself, the schema used instead (found by the fuzzer,
 * docs/fuzzing.md). The Jira v2 document types getRemoteIssueLinks' 200 as one RemoteIssueLink while its
 * own example, the v3 document and Jira answer an array (one object only with `globalId`): v3's schema.
 */
const CORRECTIONS: Record<string, object> = {
  "jira GET /rest/api/2/issue/{issueIdOrKey}/remotelink 200": {
    oneOf: [
      { type: "array", items: { $ref: "#/components/schemas/RemoteIssueLink" } },
      { $ref: "#/components/schemas/RemoteIssueLink" },
    ],
  },
};

/**
 * Component schemas a document contradicts with its own examples, corrected where they are loaded. Jira's
 * ChangeDetails types `from`/`fromString`/`to`/`toString` as strings, while the getChangeLogs example (and
 * Jira) writes null where a field had or has no value.
 */
function correctComponents(doc: SpecDocument): SpecDocument {
  const details = doc.components.schemas.ChangeDetails as
    | { properties: Record<string, { nullable?: boolean }> }
    | undefined;
  for (const key of ["from", "fromString", "to", "toString"])
    if (details?.properties[key]) details.properties[key].nullable = true;
  return doc;
}

/** Points local `#/components/...` refs at the registered spec document. */
function rewriteRefs(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"spec#/'));
}
