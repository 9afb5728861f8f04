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
