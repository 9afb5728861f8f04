/**
 * JSON text as Hugging Face chat templates write it (`tojson` is Python's `json.dumps` with
 * `ensure_ascii=False`): `", "` between items and `": "` after keys, non-ASCII kept as is. Rendering
 * tools and arguments byte-for-byte like the template keeps raw prompts identical to a server's.
 */
export function pythonJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`).join(", ")}}`;
  }
  if (typeof value === "number" && !Number.isFinite(value)) return value > 0 ? "Infinity" : "NaN";
  return JSON.stringify(value);
}

/** A scalar as Jinja's `| string` filter prints a Python value (True, False, None). */
export function pythonString(value: unknown): string {
  if (value === true) return "True";
  if (value === false) return "False";
  if (value === null || value === undefined) return "None";
  return String(value);
}
