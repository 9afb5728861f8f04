/**
 * Value-level edits of a recorded script, for reward probes: find an expected string where the
 * reference's writes carry it (raw or XML-escaped) and replace it; find the leaves that name a record
 * (its id, key or accountId) and point them at a look-alike record instead.
 */
import type { Script } from "../agent/scripted/replay.ts";
import { escapeXml } from "../sandbox/fixtures/text.ts";
import type { Site, TableName } from "../sandbox/site.ts";
import { defaultTools } from "../tools/catalogue.ts";
import type { ToolCallRequest } from "../tools/tool-call-result.ts";

export const isWrite = (call: ToolCallRequest) => defaultTools().get(call.name)?.operation.effect === "write";

/** A copy of the script whose write calls' string leaves went through `edit` (null when none changed). */
export function editWrites(script: Script, edit: (leaf: string) => string | undefined): Script | null {
  let changed = false;
  const visit = (value: unknown): unknown => {
    if (typeof value === "string") {
      const next = edit(value);
      if (next === undefined || next === value) return value;
      changed = true;
      return next;
    }
    if (Array.isArray(value)) return value.map(visit);
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(v)]));
    return value;
  };
  const calls = script.calls.map((c) => (isWrite(c) ? { ...c, arguments: visit(c.arguments) } : c));
  return changed ? { ...script, calls } : null;
}

/** Replaces the text `from` (raw, or XML-escaped inside markup) with `to` in every write leaf. */
export function replaceText(script: Script, from: string, to: string): Script | null {
  return editWrites(script, (leaf) => {
    if (leaf.includes(from)) return leaf.split(from).join(to);
    const escaped = escapeXml(from);
    return leaf.includes(escaped) ? leaf.split(escaped).join(escapeXml(to)) : undefined;
  });
}

/** Whether some write leaf carries the text. */
export const carries = (script: Script, text: string) => replaceText(script, text, `${text}\u0000`) !== null;

/** Variants of an expected text that must not pass: another case, cut short, with extra text. */
export function wrongTexts(text: string): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  const upper = text.toUpperCase() === text ? text.toLowerCase() : text.toUpperCase();
  if (upper !== text) out.push({ name: "case", value: upper });
  const sentence = text.match(/^.*?[.!?](?=\s)/)?.[0];
  const words = text.split(" ");
  const cut = sentence ?? (words.length > 1 ? words.slice(0, -1).join(" ") : text.slice(0, -1));
  if (cut.trim() !== "" && cut !== text) out.push({ name: "truncated", value: cut });
  out.push({ name: "extra text", value: `${text} Extra` });
  return out;
}

/**
 * The same text with whitespace a reader cannot see: a widened inner space (a line break too in rich
 * text; Jira refuses one in a summary), or surrounding spaces.
 */
export function spacedText(text: string, rich: boolean): string {
  return text.includes(" ") ? text.replace(" ", rich ? "  \n " : "   ") : ` ${text} `;
}

const ID_TABLES: TableName[] = ["issues", "pages", "users", "projects", "spaces", "issueTypes"];

/** The table holding a record with this id, if any. */
export function tableOf(site: Site, id: string): TableName | undefined {
  return ID_TABLES.find((t) => site.get(t, id) !== undefined);
}

type Rec = Record<string, unknown>;

/** Names a record is referred to by in payloads: [kind, value] pairs. */
function namesOf(record: Rec): [string, string][] {
  return (["id", "key", "accountId"] as const).flatMap((k) =>
    typeof record[k] === "string" ? [[k, record[k] as string] as [string, string]] : [],
  );
}

const label = (r: Rec) => String(r.summary ?? r.title ?? r.displayName ?? r.name ?? "");
const container = (r: Rec) => String(r.projectId ?? r.spaceId ?? "");

/** The record most like this one: same project or space and sharing its first word, where one exists. */
export function lookalike(site: Site, table: TableName, id: string): Rec | undefined {
  const original = site.get(table, id) as unknown as Rec;
  const first = label(original).split(" ")[0];
  const others = [...site.values(table)]
    .map((r) => r as unknown as Rec)
    .filter((r) => namesOf(r)[0]?.[1] !== id);
  const score = (r: Rec) =>
    (container(r) === container(original) ? 2 : 0) +
    (label(r).split(" ")[0] === first ? 1 : 0) +
    (r.active === false ? -5 : 0);
  return others.sort((a, b) => score(b) - score(a))[0];
}

/** Points every write leaf that names the record (by id, key or accountId) at the look-alike instead. */
export function retarget(script: Script, site: Site, table: TableName, id: string): Script | null {
  const original = site.get(table, id) as unknown as Rec;
  const other = lookalike(site, table, id);
  if (!original || !other) return null;
  const swap = new Map<string, string>();
  for (const [kind, value] of namesOf(original)) {
    const replacement = other[kind];
    if (typeof replacement === "string") swap.set(value.toUpperCase(), replacement);
  }
  return editWrites(script, (leaf) => swap.get(leaf.toUpperCase()));
}
