/**
 * Forms generated from a tool's JSON Schema, and the arguments read back from what was submitted.
 * Each leaf is one input named by its path (`fields.summary`, `labels.0`, `transition.id`): strings and
 * numbers are text/number inputs, enums and booleans are selects, nested objects are fieldsets, arrays
 * get a few item slots (the page's script adds more), and anything the form cannot express (a schema
 * without a type, a union) is a JSON text area for that field. Empty inputs are left out of the
 * arguments, so an untouched optional field is absent, as a model would leave it.
 */
import { esc } from "../report-kit/escape-html.ts";

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  required?: string[];
  description?: string;
  anyOf?: JsonSchema[];
}

/** Item slots an array field starts with. */
export const ARRAY_SLOTS = 2;

type Kind = "object" | "array" | "string" | "number" | "integer" | "boolean" | "enum" | "json";

function kindOf(schema: JsonSchema): Kind {
  if (schema.enum) return "enum";
  const types = (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []).filter(
    (t) => t !== "null",
  );
  if (types.length !== 1 || schema.anyOf) return "json";
  const [type] = types as [string];
  if (type === "object") return schema.properties ? "object" : "json";
  if (type === "array") return schema.items ? "array" : "json";
  return ["string", "number", "integer", "boolean"].includes(type) ? (type as Kind) : "json";
}

const fieldId = (prefix: string, path: string) => `f-${`${prefix}-${path}`.replace(/[^A-Za-z0-9_-]/g, "_")}`;

function leaf(prefix: string, path: string, label: string, schema: JsonSchema, required: boolean): string {
  const kind = kindOf(schema);
  const id = fieldId(prefix, path);
  const name = `arg.${path}`;
  const hint = schema.description ? `<span class="muted">${esc(schema.description)}</span>` : "";
  const title = `${esc(label)}${required ? ' <abbr title="required">*</abbr>' : ""}`;
  let input: string;
  if (kind === "enum" || kind === "boolean") {
    const values = kind === "boolean" ? [true, false] : (schema.enum ?? []);
    input = `<select id="${id}" name="${esc(name)}" data-kind="${kind === "boolean" ? "boolean" : "enum"}"><option value="">(unset)</option>${values
      .map((v) => `<option value="${esc(JSON.stringify(v))}">${esc(String(v))}</option>`)
      .join("")}</select>`;
  } else if (kind === "json") {
    input = `<textarea id="${id}" name="${esc(name)}" data-kind="json" placeholder="JSON value"></textarea>`;
  } else {
    const type = kind === "string" ? "text" : "number";
    const step = kind === "number" ? ' step="any"' : "";
    input = `<input id="${id}" name="${esc(name)}" type="${type}"${step} data-kind="${kind}">`;
  }
  return `<label for="${id}">${title}${input}${hint}</label>`;
}

function field(
  prefix: string,
  path: string,
  label: string,
  schema: JsonSchema,
  required: boolean,
  depth: number,
): string {
  const kind = kindOf(schema);
  if (kind === "object" && depth < 6) {
    const req = new Set(schema.required ?? []);
    const inner = Object.entries(schema.properties ?? {})
      .map(([key, s]) => field(prefix, path ? `${path}.${key}` : key, key, s, req.has(key), depth + 1))
      .join("\n");
    if (!path) return inner;
    return `<fieldset><legend>${esc(label)}${required ? " *" : ""}</legend>${schema.description ? `<p class="muted">${esc(schema.description)}</p>` : ""}${inner}</fieldset>`;
  }
  if (kind === "array" && depth < 6) {
    const slots = Array.from(
      { length: ARRAY_SLOTS },
      (_, i) =>
        `<div class="slot" data-index="${i}">${field(prefix, `${path}.${i}`, `${label} [${i}]`, schema.items!, false, depth + 1)}</div>`,
    ).join("");
    return `<fieldset class="array" data-path="${esc(path)}"><legend>${esc(label)}${required ? " *" : ""} (list)</legend>${schema.description ? `<p class="muted">${esc(schema.description)}</p>` : ""}${slots}<button type="button" class="add-item">add item</button></fieldset>`;
  }
  return leaf(prefix, path, label, schema, required);
}

/** The inputs of a form for arguments of this schema (an object schema); `prefix` keeps ids unique on the page. */
export function schemaFields(schema: JsonSchema, prefix: string): string {
  return field(prefix, "", "", schema, true, 0);
}

/** Thrown when a submitted value does not fit its field (bad number, bad JSON). */
export class FormValueError extends Error {
  override name = "FormValueError";
}

function value(kind: string | undefined, text: string, path: string): unknown {
  if (kind === "number" || kind === "integer") {
    const n = Number(text);
    if (!Number.isFinite(n) || (kind === "integer" && !Number.isInteger(n)))
      throw new FormValueError(`${path}: '${text}' is not ${kind === "integer" ? "an integer" : "a number"}`);
    return n;
  }
  if (kind === "json" || kind === "enum" || kind === "boolean") {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new FormValueError(`${path}: not valid JSON (${(error as Error).message})`);
    }
  }
  return text;
}

/** The schema node at a dotted path (array indices step into `items`). */
function nodeAt(schema: JsonSchema, parts: string[]): JsonSchema | undefined {
  let node: JsonSchema | undefined = schema;
  for (const part of parts) {
    if (!node) return undefined;
    node = /^\d+$/.test(part) && node.items ? node.items : node.properties?.[part];
  }
  return node;
}

/**
 * The arguments object from submitted `arg.<path>` fields: empty ones left out, values typed by the
 * schema, array slots compacted in order. Throws FormValueError naming the field for a bad value.
 */
export function argumentsFromForm(schema: JsonSchema, form: Record<string, string>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(form)) {
    if (!name.startsWith("arg.") || raw.trim() === "") continue;
    const parts = name.slice(4).split(".");
    const node = nodeAt(schema, parts);
    if (!node) continue;
    const kind = kindOf(node);
    let target: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1)
        target[part] = value(kind, kind === "string" ? raw : raw.trim(), parts.join("."));
      else {
        target[part] ??= {};
        target = target[part] as Record<string, unknown>;
      }
    });
  }
  return compactArrays(schema, root) as Record<string, unknown>;
}

/** Objects whose schema is an array (keyed by slot index) become arrays, in slot order. */
function compactArrays(schema: JsonSchema | undefined, data: unknown): unknown {
  if (!schema || typeof data !== "object" || data === null) return data;
  if (kindOf(schema) === "array") {
    return Object.entries(data as Record<string, unknown>)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([, v]) => compactArrays(schema.items, v));
  }
  return Object.fromEntries(
    Object.entries(data as Record<string, unknown>).map(([k, v]) => [
      k,
      compactArrays(schema.properties?.[k], v),
    ]),
  );
}
