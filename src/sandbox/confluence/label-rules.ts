/**
 * Label naming rules for v1 label writes. Confluence lower-cases labels; the rule chosen here (the
 * documented one, applied strictly rather than Confluence's silent splitting on spaces) rejects empty
 * names, names over 255 characters, whitespace and the characters `: ; , . ? & [ ] ( ) # ^ * @ ! '`.
 * Prefixes are `global` (the default in the UI), `my` and `team`.
 */
import { confluenceV1Error } from "../api-error.ts";
import type { PageLabel } from "./model.ts";

export const LABEL_PREFIXES = ["global", "my", "team"] as const;
export type LabelPrefix = PageLabel["prefix"];

export const MAX_LABEL_LENGTH = 255;

const DISALLOWED = /[\s:;,.?&[\]()#^*@!']/;

/** The stored (lower-cased) name, or a v1 400 naming the problem. */
export function checkLabelName(raw: string): string {
  const name = raw.trim().toLowerCase();
  if (name === "") throw confluenceV1Error(400, "Label names cannot be empty.");
  if (name.length > MAX_LABEL_LENGTH)
    throw confluenceV1Error(400, `Label '${raw}' is longer than ${MAX_LABEL_LENGTH} characters.`);
  if (DISALLOWED.test(name))
    throw confluenceV1Error(
      400,
      `Label '${raw}' contains invalid characters: labels cannot contain spaces or any of : ; , . ? & [ ] ( ) # ^ * @ ! '`,
    );
  return name;
}

export function checkLabelPrefix(raw: string | undefined): LabelPrefix {
  const prefix = (raw ?? "global").trim().toLowerCase();
  if (!(LABEL_PREFIXES as readonly string[]).includes(prefix))
    throw confluenceV1Error(400, `Invalid label prefix '${raw}': use global, my or team.`);
  return prefix as LabelPrefix;
}

/** A label reference in a delete: `name` (global) or `prefix:name`. */
export function parseLabelRef(raw: string): { prefix: LabelPrefix; name: string } {
  const match = /^(global|my|team):(.+)$/i.exec(raw.trim());
  if (match) return { prefix: match[1]!.toLowerCase() as LabelPrefix, name: match[2]!.toLowerCase() };
  return { prefix: "global", name: raw.trim().toLowerCase() };
}
