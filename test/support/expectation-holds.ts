/**
 * A small, test-only reading of an Expectation against an end state, used by the expectation-only
 * families before the reward engine (branch `reward`) scores them: every declared entity holds its
 * values, and the diff holds nothing else. Returns the problems in words (empty when it holds).
 */
import type { Expectation, ExpectedValue } from "../../src/reward/expectation.ts";
import { storageToAdf } from "../../src/sandbox/adf/storage-to-adf.ts";
import { adfToText } from "../../src/sandbox/adf/text.ts";
import type { AdfNode } from "../../src/sandbox/adf/types.ts";
import type { PageBody } from "../../src/sandbox/confluence/model.ts";
import { diff } from "../../src/sandbox/diff.ts";
import type { Site } from "../../src/sandbox/site.ts";

const norm = (s: string) => s.replace(/\s+/g, " ").trim();

function docOf(body: PageBody): AdfNode {
  return body.representation === "storage" ? storageToAdf(body.value) : JSON.parse(body.value);
}

function tablesOf(node: AdfNode): AdfNode[] {
  if (node.type === "table") return [node];
  return (node.content ?? []).flatMap(tablesOf);
}

function fieldAt(record: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], record);
}

function holds(value: unknown, want: ExpectedValue): boolean {
  if ("equals" in want)
    return typeof value === "string" && typeof want.equals === "string"
      ? norm(value) === norm(want.equals)
      : String(value) === String(want.equals);
  if ("visibleText" in want) return norm(adfToText(docOf(value as PageBody))) === norm(want.visibleText);
  if ("set" in want)
    return JSON.stringify([...(value as string[])].sort()) === JSON.stringify([...want.set].sort());
  const tables = tablesOf(docOf(value as PageBody));
  if (tables.length !== 1) return false;
  const rows = (tables[0]!.content ?? []).map((row) =>
    (row.content ?? []).map((cell) => norm(adfToText(cell))),
  );
  const expected = [...(want.table.header ? [want.table.header] : []), ...want.table.rows];
  return JSON.stringify(rows) === JSON.stringify(expected.map((r) => r.map(norm)));
}

export function expectationProblems(expectation: Expectation, initial: Site, site: Site): string[] {
  const problems: string[] = [];
  const changes = diff(initial, site);
  const used = new Set<(typeof changes)[number]>();
  for (const entity of expectation.entities) {
    const candidates = changes.filter((c) => c.table === entity.table && !used.has(c));
    if (entity.kind === "delete") {
      const gone = candidates.find((c) => c.kind === "deleted" && c.id === entity.id);
      if (gone) used.add(gone);
      else problems.push(`${entity.ref}: not deleted`);
      continue;
    }
    const kind = entity.kind === "create" ? "created" : "updated";
    for (let n = 0; n < (entity.kind === "create" ? (entity.count ?? 1) : 1); n++) {
      const match = candidates.find(
        (c) =>
          c.kind === kind &&
          !used.has(c) &&
          (entity.kind === "create" || c.id === entity.id) &&
          Object.entries(entity.fields).every(([path, want]) => holds(fieldAt(c.after, path), want)),
      );
      if (match) used.add(match);
      else problems.push(`${entity.ref}: no ${kind} record holds ${JSON.stringify(entity.fields)}`);
    }
  }
  for (const c of changes) if (!used.has(c)) problems.push(`unexpected ${c.kind} ${c.table} ${c.id}`);
  return problems;
}
