/**
 * Reward probes, generated mechanically from a task's Expectation and its reference script: traces that
 * must not pass (each expected value perturbed: another case, cut short, extra text, hidden in markup, a
 * look-alike record; a look-alike block structure; an unrequested field on a created record, an extra
 * record, a change made and reverted, a change nobody asked for) and traces that must pass (whitespace a reader cannot see,
 * another representation, another legal route, validation by search then get, the REST surface).
 */
import type { Script } from "../agent/scripted/replay.ts";
import type { Expectation } from "../reward/expectation.ts";
import { storageToAdf } from "../sandbox/adf/storage-to-adf.ts";
import type { Page } from "../sandbox/confluence/model.ts";
import type { Issue } from "../sandbox/jira/model.ts";
import type { Site } from "../sandbox/site.ts";
import type { Scenario } from "../scenarios/define-scenario.ts";
import type { ToolCallRequest } from "../tools/tool-call-result.ts";
import { refusalProbes } from "./probe-refusals.ts";
import { structureProbes } from "./probe-structure.ts";
import {
  carries,
  editWrites,
  isWrite,
  replaceText,
  retarget,
  spacedText,
  tableOf,
  wrongTexts,
} from "./probe-values.ts";
import { alternativeRoutes, changeAndUndo, perCallEdits, wrongRoutes } from "./probe-writes.ts";

export interface Probe {
  /** What kind of trace it is ("case", "look-alike", "alternative route"...). */
  kind: string;
  detail: string;
  must: "fail" | "pass";
  script: Script;
  /** Run every call through the REST facade's path (recordOperation) instead of tool calls. */
  rest?: boolean;
  /** Run Jira calls through their REST v2 presentation, rich text as wiki markup (others as `rest`). */
  surface?: "jira-v2";
  /** Run with the whole default catalogue (a must-fail probe may need tools the task does not offer). */
  catalogue?: boolean;
  /** A perturbed value: void when the API normalises it back (the end state is the reference's). */
  value?: boolean;
}

const VALUE_KINDS = new Set(["case", "truncated", "extra text", "hidden markup", "look-alike"]);

const call = (name: string, args: Record<string, unknown>): ToolCallRequest => ({ name, arguments: args });
const firstWrite = (s: Script) => s.calls.findIndex(isWrite);

export function generateProbes(
  scenario: Scenario,
  site: Site,
  expectation: Expectation,
  reference: Script,
): Probe[] {
  const probes: Probe[] = [];
  const fail = (kind: string, detail: string, script: Script | null, catalogue = false) => {
    if (script) probes.push({ kind, detail, must: "fail", script, catalogue, value: VALUE_KINDS.has(kind) });
  };
  const pass = (kind: string, detail: string, script: Script | null, rest = false) => {
    if (script) probes.push({ kind, detail, must: "pass", script, rest });
  };
  const markup = (leaf: string) => leaf.trimStart().startsWith("<") || leaf.trimStart().startsWith('{"type"');

  for (const entity of expectation.entities) {
    if (entity.kind === "delete") continue;
    if (entity.kind === "update")
      fail(
        "look-alike",
        `${entity.ref} → a look-alike record`,
        retarget(reference, site, entity.table, entity.id),
      );
    for (const [field, value] of Object.entries(entity.fields)) {
      const where = `${entity.ref}.${field}`;
      if ("equals" in value && typeof value.equals === "string" && /Id$/.test(field)) {
        const table = tableOf(site, value.equals);
        if (table)
          fail(
            "look-alike",
            `${where} → a look-alike record`,
            retarget(reference, site, table, value.equals),
          );
        continue;
      }
      if ("oneOf" in value) {
        const form = value.oneOf.map(String).find((v) => carries(reference, v));
        if (!form) continue;
        fail(
          "case",
          `${where} in another case`,
          editWrites(reference, (l) => (l === form ? form.toUpperCase() : undefined)),
        );
        fail(
          "extra text",
          `${where} with extra text`,
          editWrites(reference, (l) => (l === form ? `${form}x` : undefined)),
        );
        const other = value.oneOf.map(String).find((v) => v !== form && v.includes("/x/"));
        if (other)
          pass(
            "another accepted form",
            `${where} as ${other}`,
            editWrites(reference, (l) => (l === form ? other : undefined)),
          );
        continue;
      }
      const rich = "visibleText" in value || "includesText" in value || "blocks" in value;
      const texts =
        "equals" in value && typeof value.equals === "string"
          ? [value.equals]
          : "visibleText" in value
            ? [value.visibleText]
            : "includesText" in value
              ? value.includesText
              : "set" in value
                ? value.set
                : "blocks" in value
                  ? value.blocks.blocks.flatMap((b) =>
                      "heading" in b ? [b.heading] : "paragraph" in b ? [b.paragraph] : [],
                    )
                  : [];
      for (const text of texts.filter((t) => carries(reference, t))) {
        for (const wrong of wrongTexts(text))
          fail(
            wrong.name,
            `${where}: ${JSON.stringify(wrong.value).slice(0, 60)}`,
            replaceText(reference, text, wrong.value),
          );
        if (rich) {
          const hidden =
            "visibleText" in value
              ? editWrites(reference, (l) =>
                  markup(l) && l.includes(text.slice(0, 20))
                    ? `<p>See below.</p><!-- ${text} -->`
                    : undefined,
                )
              : editWrites(reference, (l) =>
                  markup(l) && l.includes(text)
                    ? l.split(text).join(`<span style="display: none">${text}</span>`)
                    : undefined,
                );
          fail("hidden markup", `${where} hidden in markup`, hidden);
        }
        // Values the API parses admit no padding (it rejects " 2027-03-15 " and labels with spaces).
        if (("set" in value && entity.table === "issues") || /^\d{4}-\d{2}-\d{2}$/.test(text)) continue;
        const spaced = spacedText(text, rich);
        pass(
          "whitespace",
          `${where} with extra whitespace`,
          editWrites(reference, (l) =>
            rich
              ? markup(l) && l.includes(text)
                ? l.split(text).join(spaced)
                : undefined
              : l === text
                ? spaced
                : undefined,
          ),
        );
      }
    }
  }
  for (const edit of perCallEdits(reference))
    (edit.must === "fail" ? fail : pass)(edit.kind, edit.detail, edit.script);
  for (const p of structureProbes(expectation, reference))
    (p.must === "fail" ? fail : pass)(p.kind, p.detail, p.script);
  for (const route of alternativeRoutes(site, expectation, reference))
    pass("alternative route", route.detail, route.script);
  for (const route of wrongRoutes(site, expectation, reference))
    fail("wrong value", route.detail, route.script);

  const first = firstWrite(reference);
  // A record of the task's site (a workflow's later step may validate a record an earlier step creates).
  const target = expectation.validate.find(
    (r): r is { table: "issues" | "pages"; id: string } =>
      (r.table === "issues" || r.table === "pages") && site.get(r.table, r.id) !== undefined,
  );
  if (first >= 0 && target) {
    const [make, undo] = changeAndUndo(site, target.table, target.id);
    const insert = (calls: ToolCallRequest[]) => ({
      ...reference,
      calls: [...reference.calls.slice(0, first), ...calls, ...reference.calls.slice(first)],
    });
    fail(
      "made and reverted",
      `a change to ${target.table} ${target.id}, then undone`,
      insert([make, undo]),
      true,
    );
    fail("collateral", `a change to ${target.table} ${target.id} nobody asked for`, insert([make]), true);
    // The lookup stands in for the reads before the first write; a workflow step declined before it
    // needs its own reads as evidence (they validate the decline, not the write), so none is replaced.
    const declinedFirst = expectation.steps?.some((s) => s.refuse !== undefined) ?? false;
    const lookup = declinedFirst ? undefined : searchThenGet(scenario, site, target.table, target.id);
    if (lookup)
      pass("search then get", `validated by ${lookup.map((c) => c.name).join(" + ")}`, {
        ...reference,
        calls: [...lookup, ...reference.calls.slice(first)],
      });
  }
  if (expectation.refuse !== undefined)
    refusalProbes(site, expectation, reference, fail, pass, scenario.tools);
  pass("REST surface", "every call through the REST facade", reference, true);
  if (reference.calls.some((c) => isWrite(c) && c.name.startsWith("jira_") && holdsAdf(c.arguments)))
    probes.push({
      kind: "Jira REST v2",
      detail:
        "the Jira writes over /rest/api/2 with their rich text as wiki markup (mentions as [~accountid:…])",
      must: "pass",
      script: reference,
      surface: "jira-v2",
    });
  if (expectation.entities.some((e) => e.table === "pages"))
    pass("another representation", "the page body as atlas_doc_format", adfBodies(reference));
  else if (
    expectation.entities.some(
      (e) => e.kind !== "delete" && Object.values(e.fields).some((v) => "visibleText" in v),
    )
  )
    pass("another representation", "the ADF text in bold, split into two text nodes", markedAdf(reference));
  return probes;
}

/** Whether a value holds an ADF document anywhere. */
function holdsAdf(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsAdf);
  if (value === null || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return (v.type === "doc" && Array.isArray(v.content)) || Object.values(v).some(holdsAdf);
}

/** A search whose result holds the record, then a get of it, with tools the scenario offers. */
function searchThenGet(
  scenario: Scenario,
  site: Site,
  table: "issues" | "pages",
  id: string,
): ToolCallRequest[] | null {
  const offers = (...names: string[]) => names.every((n) => scenario.tools.includes(n));
  if (table === "issues" && offers("jira_search_issues", "jira_get_issue")) {
    const key = (site.get("issues", id) as Issue).key;
    return [
      call("jira_search_issues", { jql: `key = ${key}`, fields: ["summary"] }),
      call("jira_get_issue", { issueIdOrKey: key }),
    ];
  }
  if (table === "pages" && offers("confluence_get_pages", "confluence_get_page")) {
    const page = site.get("pages", id) as Page;
    return [
      call("confluence_get_pages", { "space-id": [page.spaceId], title: page.title }),
      call("confluence_get_page", { id }),
    ];
  }
  return null;
}

/** Page bodies written as storage, rewritten as the same document in atlas_doc_format. */
function adfBodies(script: Script): Script | null {
  let changed = false;
  const calls = script.calls.map((c) => {
    const args = c.arguments as { body?: { representation?: string; value?: string } };
    if (c.name !== "confluence_create_page" || args.body?.representation !== "storage") return c;
    changed = true;
    const value = JSON.stringify(storageToAdf(args.body.value ?? ""));
    return { ...c, arguments: { ...args, body: { representation: "atlas_doc_format", value } } };
  });
  return changed ? { ...script, calls } : null;
}

/** ADF documents in write arguments rewritten with the same visible text: each text node bold and split in two. */
function markedAdf(script: Script): Script | null {
  let changed = false;
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.flatMap((v) => splitText(v) ?? [rewrite(v)]);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]));
  };
  const splitText = (node: unknown): unknown[] | null => {
    const n = node as { type?: string; text?: string; marks?: unknown[] };
    if (n?.type !== "text" || typeof n.text !== "string" || n.text.length < 2) return null;
    changed = true;
    const marks = [...(n.marks ?? []), { type: "strong" }];
    const half = Math.ceil(n.text.length / 2);
    return [
      { ...n, text: n.text.slice(0, half), marks },
      { ...n, text: n.text.slice(half), marks },
    ];
  };
  const calls = script.calls.map((c) => (isWrite(c) ? { ...c, arguments: rewrite(c.arguments) } : c));
  return changed ? { ...script, calls } : null;
}
