/**
 * snake_case keys for the JSON files atlas-gym writes. Only the keys of the levels named by the caller
 * are renamed (never data: tool arguments, expected values and bodies keep their keys as they are).
 */

export const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const camelCase = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The object with its own keys renamed (values untouched); undefined values are dropped. */
export function renameKeys<T extends object>(
  value: T,
  rename: (key: string) => string,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [rename(k), v]),
  );
}
