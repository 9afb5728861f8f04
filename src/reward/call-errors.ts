/**
 * R3 for rejected calls, labelled exactly: a tool that does not exist or is not offered; write
 * arguments the tool refuses before the API (malformed JSON, its own schema) = `invalid_payload`; a
 * write the API rejects with 400 = `dropped_required_field` only when the error names a field that the
 * payload lacks, `invalid_payload` otherwise (a wrong type, a bad value).
 */
import { PENALTIES, type ViolationCode } from "./penalties.ts";

export interface RejectedCall {
  name: string;
  operationId: string | null;
  effect: "read" | "write" | null;
  arguments: unknown;
  input: { params: Record<string, unknown>; body: unknown } | null;
  status: number | null;
  ok: boolean;
  errorType: string | null;
  body: unknown;
}

export interface CallViolation {
  code: ViolationCode;
  message: string;
  penalty: number;
}

export function callViolation(call: RejectedCall, knownTools: ReadonlySet<string>): CallViolation | null {
  const v = (code: ViolationCode, message: string) => ({ code, message, penalty: PENALTIES[code] });
  if (call.errorType === "unknown_tool")
    return knownTools.has(call.name)
      ? v("disallowed_tool", `Called '${call.name}', a tool this task does not offer.`)
      : v("hallucinated_tool", `Called '${call.name}', a tool that does not exist.`);
  if (call.effect !== "write" || call.ok) return null;
  if (call.errorType === "invalid_args")
    return v("invalid_payload", `${call.name}: arguments refused before the API (${describeError(call)}).`);
  if (call.status !== 400) return null;
  const dropped = namedFields(call.body).find((f) => !hasKey(call.input ?? call.arguments, f));
  return dropped
    ? v("dropped_required_field", `${call.operationId} rejected (400): required field '${dropped}' missing.`)
    : v(
        "invalid_payload",
        `${call.operationId} rejected as an invalid payload (400): ${describeError(call)}.`,
      );
}

/** Field names an error body points at: Jira's `errors` keys, and "'x' is required"-style messages. */
export function namedFields(body: unknown): string[] {
  const names = new Set<string>();
  if (body && typeof body === "object") {
    const errors = (body as { errors?: unknown }).errors;
    if (errors && typeof errors === "object" && !Array.isArray(errors))
      for (const key of Object.keys(errors)) names.add(key.split(".").at(-1)!);
  }
  for (const message of messages(body)) {
    for (const m of message.matchAll(/'?([A-Za-z_][\w.-]*)'? (?:is|are) required/g))
      names.add(m[1]!.split(".").at(-1)!);
    if (/required|missing|must have|must specify|must be specified/i.test(message))
      for (const m of message.matchAll(/'([A-Za-z_][\w.-]*)'/g)) names.add(m[1]!.split(".").at(-1)!);
  }
  return [...names].filter((n) => !/^(it|this|one|the)$/i.test(n));
}

/** Every string in an error body. */
function messages(body: unknown): string[] {
  if (typeof body === "string") return [body];
  if (body === null || typeof body !== "object") return [];
  return Object.values(body as Record<string, unknown>).flatMap(messages);
}

/** Whether a key of this name (any case) appears anywhere in the payload with a value ({} and "" are none). */
function hasKey(value: unknown, name: string): boolean {
  const want = name.toLowerCase();
  const walk = (v: unknown, depth: number): boolean => {
    if (depth > 10 || v === null || typeof v !== "object") return false;
    return Object.entries(v as Record<string, unknown>).some(
      ([k, x]) => (k.toLowerCase() === want && !isEmpty(x)) || walk(x, depth + 1),
    );
  };
  return walk(value, 0);
}

const isEmpty = (x: unknown) =>
  x === undefined ||
  x === null ||
  x === "" ||
  (typeof x === "object" && Object.keys(x as object).length === 0);

function describeError(call: RejectedCall): string {
  const text = JSON.stringify(call.body ?? call.errorType);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}
