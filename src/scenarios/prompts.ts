/** Helpers for prompt templates: fill `{placeholders}` and pick one of a scenario's paraphrases. */
import type { Random } from "../sandbox/random.ts";

export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`Prompt template needs a value for {${key}}: ${template}`);
    return value;
  });
}

export function paraphrase(
  random: Random,
  templates: readonly string[],
  values: Record<string, string>,
): string {
  return fill(random.pick(templates), values);
}

/** The text with its first character in upper case (a prompt that opens with a placeholder). */
export const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
