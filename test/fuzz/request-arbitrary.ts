/**
 * Requests for one served endpoint, generated from its operation in Atlassian's OpenAPI document:
 * `valid` requests follow the document (path and query parameters by their schemas, the JSON body by
 * the request body schema, real ids from the seeded site mixed in), and `invalid` ones are a valid
 * request with one thing broken: a wrong type somewhere in the body, a required property dropped, a
 * body that is not JSON or not an object, a path id that names nothing (`mustFail`: the answer must be
 * a 4xx), or a query parameter of the wrong type.
 */
import fc from "fast-check";
import type { Endpoint } from "../../src/sandbox/presentation.ts";
import { findSpecOperation, specDocumentOf, specPath } from "../support/spec-contract.ts";
import { arbitraryOf, deref, maybe, type Schema, type SchemaContext } from "./schema-arbitrary.ts";
import type { SiteValues } from "./site-values.ts";

export interface FuzzRequest {
  kind: string;
  method: string;
  /** Path with the query string, relative to the site (`/rest/api/3/...`). */
  url: string;
  body?: string;
  /** True when the request names something that does not exist: it must be refused. */
  mustFail: boolean;
}

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: Schema;
}

interface Parts {
  path: Record<string, string>;
  query: [string, string][];
  body: unknown;
}

/** Path ids that must name an entity: a request with one that names nothing is refused. */
const ENTITY_PARAMS = new Set(["issueIdOrKey", "projectIdOrKey", "issueTypeId", "id", "spaceKey"]);

export function requestArbitraries(endpoint: Endpoint, values: SiteValues, hasBody: boolean) {
  const spec = findSpecOperation(endpoint);
  if (!spec) throw new Error(`${endpoint.method} ${endpoint.path} is not in its document`);
  const doc = specDocumentOf(endpoint);
  const where = (kind: "path" | "query" | "body"): SchemaContext => ({
    doc,
    valuesFor: (name) => values.forName(name, endpoint.path, kind),
  });
  const params = (spec.parameters ?? []).map((p) => deref(doc, p) as Parameter);
  const pathParams = params.filter((p) => p.in === "path");
  const queryParams = params.filter((p) => p.in === "query");
  const bodySchema = hasBody ? requestBodySchema(doc, spec.requestBody) : undefined;

  const path = fc.record(
    Object.fromEntries(
      pathParams.map((p) => [p.name, arbitraryOf(p.schema, where("path"), 0, p.name).map(String)]),
    ),
  ) as fc.Arbitrary<Record<string, string>>;
  const query = fc
    .tuple(
      ...queryParams.map((p) => {
        const value = arbitraryOf(p.schema, where("query"), 0, p.name).map((v) => queryEntries(p.name, v));
        return p.required ? value : maybe(value, values.forName(p.name, endpoint.path, "query") ? 1 : 3);
      }),
    )
    .map((lists) => lists.flatMap((list) => list ?? []));
  const body = bodySchema ? arbitraryOf(bodySchema, where("body"), 0) : fc.constant(undefined);
  const valid: fc.Arbitrary<Parts> = fc.record({ path, query, body });

  const build = (kind: string, parts: Parts, mustFail = false, rawBody?: string): FuzzRequest => {
    const route = specPath(endpoint).replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(parts.path[name] ?? ""),
    );
    const qs = new URLSearchParams(parts.query).toString();
    const prefix = endpoint.path.slice(0, endpoint.path.length - specPath(endpoint).length);
    const text = rawBody ?? (parts.body === undefined ? undefined : JSON.stringify(parts.body));
    return {
      kind,
      method: endpoint.method,
      url: `${prefix}${route}${qs ? `?${qs}` : ""}`,
      body: text,
      mustFail,
    };
  };

  const mutations: fc.Arbitrary<FuzzRequest>[] = [];
  if (bodySchema) {
    mutations.push(
      fc
        .tuple(valid, fc.nat(), wrongValue)
        .map(([p, at, bad]) => build("wrong type in body", { ...p, body: replaceAt(p.body, at, bad) })),
      fc
        .tuple(valid, fc.nat())
        .map(([p, at]) =>
          build("required property dropped", { ...p, body: dropAt(p.body, at, doc, bodySchema) }),
        ),
      fc
        .tuple(valid, fc.nat(), hostileKey)
        .map(([p, at, key]) => build("hostile key in body", { ...p, body: withKeyAt(p.body, at, key) })),
      fc
        .tuple(valid, fc.constantFrom('{"fields": {', "[]", '"text"', "42", "null", "not json"))
        .map(([p, raw]) => build("body not a JSON object", p, false, raw)),
    );
  }
  for (const p of pathParams.filter((p) => ENTITY_PARAMS.has(p.name)))
    mutations.push(
      fc
        .tuple(valid, values.badIds)
        .map(([parts, id]) =>
          build(`unknown ${p.name}`, { ...parts, path: { ...parts.path, [p.name]: id } }, true),
        ),
    );
  if (queryParams.length > 0)
    mutations.push(
      fc.tuple(valid, fc.constantFrom(...queryParams), badQueryValue).map(([parts, p, bad]) =>
        build(`bad query ${p.name}`, {
          ...parts,
          query: [...parts.query.filter(([k]) => k !== p.name), [p.name, bad]],
        }),
      ),
    );
  mutations.push(
    fc
      .tuple(valid, fc.string({ maxLength: 8 }), badQueryValue)
      .map(([parts, key, bad]) =>
        build("unknown query parameter", { ...parts, query: [...parts.query, [`x${key}`, bad]] }),
      ),
  );
  return {
    valid: valid.map((parts) => build("valid", parts)),
    invalid: fc.oneof(...mutations),
  };
}

/** The JSON request body's schema, when the operation takes one. */
function requestBodySchema(doc: object, requestBody: object | undefined): Schema | undefined {
  if (!requestBody) return undefined;
  const content = deref(
    doc,
    requestBody as Schema & { content?: Record<string, { schema?: Schema }> },
  ).content;
  return content?.["application/json"]?.schema ?? Object.values(content ?? {})[0]?.schema ?? {};
}

/** A query parameter's value as entries: arrays are repeated or comma-joined, as clients do both. */
function queryEntries(name: string, value: unknown): [string, string][] {
  if (Array.isArray(value)) {
    if (value.length > 1 && value.every((v) => typeof v !== "object")) return [[name, value.join(",")]];
    return value.map((v) => [name, typeof v === "object" ? JSON.stringify(v) : String(v)]);
  }
  return [[name, typeof value === "object" ? JSON.stringify(value) : String(value)]];
}

const wrongValue = fc.oneof(
  fc.integer(),
  fc.constantFrom(1e308, -1, 0.5, 2 ** 53 + 1, "\ud800", "x".repeat(40_000)),
  fc.string({ maxLength: 6 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.constant([{ nested: true }]),
);

const badQueryValue = fc.oneof(
  fc.constantFrom("", "abc", "-1", "1.5", "99999999999999999999", "maybe", "null", "[]", "{}", "%", "🙂"),
  fc.string({ maxLength: 10 }),
);

/** Keys that trip code which treats a parsed body as a plain map. */
const hostileKey = fc.constantFrom("__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "");

/** A copy of the body with `key` set (to an object) on the object at index `at`, or at its top. */
function withKeyAt(body: unknown, at: number, key: string): unknown {
  const copy = structuredClone(body);
  const objects = [copy, ...nodes(copy).map((n) => n.get)].filter(
    (v): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v),
  );
  if (objects.length === 0) return copy;
  Object.defineProperty(objects[at % objects.length]!, key, {
    value: { polluted: true },
    enumerable: true,
    configurable: true,
    writable: true,
  });
  return copy;
}

/** Every node of a JSON value (depth first), with a setter into the value. */
function nodes(value: unknown): { get: unknown; set: (v: unknown) => void }[] {
  const out: { get: unknown; set: (v: unknown) => void }[] = [];
  const walk = (node: unknown) => {
    if (node === null || typeof node !== "object") return;
    for (const key of Object.keys(node)) {
      const holder = node as Record<string, unknown>;
      out.push({ get: holder[key], set: (v) => (holder[key] = v) });
      walk(holder[key]);
    }
  };
  walk(value);
  return out;
}

/** A copy of the body with the node at index `at` (mod the node count) replaced; the whole body when it has none. */
function replaceAt(body: unknown, at: number, bad: unknown): unknown {
  const copy = structuredClone(body);
  const all = nodes(copy);
  if (all.length === 0) return bad;
  all[at % all.length]!.set(bad);
  return copy;
}

/** A copy of the body without one of its top-level required properties (or any property when none is required). */
function dropAt(body: unknown, at: number, doc: object, schema: Schema): unknown {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return body;
  const copy = { ...(body as Record<string, unknown>) };
  const required = deref(doc, schema).required ?? [];
  const keys = required.length > 0 ? required : Object.keys(copy);
  if (keys.length > 0) delete copy[keys[at % keys.length]!];
  return copy;
}
