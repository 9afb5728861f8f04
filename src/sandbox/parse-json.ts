/**
 * JSON.parse under a nesting limit, for everything a client or a model sends as JSON (REST and env-server
 * request bodies, MCP over HTTP, a tool call's arguments): no input can hand the recursive code after it
 * (validation, the trace's JSON, the journal, digests) a value deep enough to overflow the stack. A value
 * that arrives already parsed (MCP over stdio, an in-process caller) is measured with tooDeep.
 */

/**
 * Deepest nesting of arrays and objects accepted: Jackson's default limit (StreamReadConstraints, 1000),
 * which Atlassian's own JSON parsing has.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * JSON.parse, refusing values nested deeper than MAX_JSON_DEPTH with a SyntaxError, as malformed JSON
 * is refused: every caller already words a SyntaxError as its own "malformed JSON" answer.
 */
export function parseJson(text: string): unknown {
  // Nesting takes a bracket per level, so text this short cannot be too deep: most bodies skip the scan.
  if (text.length > MAX_JSON_DEPTH) checkDepth(text);
  return JSON.parse(text);
}

function checkDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH)
        throw new SyntaxError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels (at position ${i})`);
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

/** Whether an already parsed value nests arrays and objects deeper than MAX_JSON_DEPTH (no recursion). */
export function tooDeep(value: unknown): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== "object" || item === null) continue;
    if (depth > MAX_JSON_DEPTH) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}
