/**
 * Test helper for scenarios declared by expectation: plays a task's reference solution on a fork of the
 * task's site through the scenario's default tools (every call must succeed), and checks the end state
 * against the task's Expectation by inspection — each expected field's value, no changes beyond the
 * expected entities (bookkeeping timestamps aside), nothing changed for a task that must be refused.
 * It is a test oracle, deliberately simple; the reward engine derives the real verdict.
 */
import type { Expectation, ExpectedValue } from "../../src/reward/expectation.ts";
import { adfToText } from "../../src/sandbox/adf/text.ts";
import type { AdfNode } from "../../src/sandbox/adf/types.ts";
import { diff, type RecordChange } from "../../src/sandbox/diff.ts";
import { AGENT_ACCOUNT_ID } from "../../src/sandbox/fixtures/default-site.ts";
import type { Site } from "../../src/sandbox/site.ts";
import type { Scenario, Split, Task } from "../../src/scenarios/define-scenario.ts";
import { DEFAULT_BASE_URL } from "../../src/scenarios/episode.ts";
import { generateTask } from "../../src/scenarios/tasks.ts";
import { defaultTools } from "../../src/tools/catalogue.ts";
import { executeToolCall, type ToolCallResult } from "../../src/tools/execute-tool.ts";

/** Fields the site maintains on every write; an expectation never names them. */
const BOOKKEEPING = new Set(["updated", "statusCategoryChangeDate", "resolutionDate"]);

export interface Played<E> {
  task: Task<E>;
  initial: Site;
  site: Site;
  calls: ToolCallResult[];
  final: string;
  expectation: Expectation;
}

export function playReference<E>(scenario: Scenario<E>, split: Split, index: number): Played<E> {
  const { task, site: initial } = generateTask(scenario, split, index);
  const site = initial.fork();
  const tools = new Map(scenario.tools.map((name) => [name, defaultTools().get(name)!]));
  const ctx = { baseUrl: DEFAULT_BASE_URL, accountId: AGENT_ACCOUNT_ID };
  const calls: ToolCallResult[] = [];
  const solution = scenario.reference(task);
  let next = solution.next(undefined as unknown as ToolCallResult);
  while (!next.done) {
    const result = executeToolCall(site, tools, next.value, ctx);
    calls.push(result);
    next = solution.next(result);
  }
  const expectation = scenario.expect!(task, initial, { baseUrl: DEFAULT_BASE_URL });
  return { task, initial, site, calls, final: next.value, expectation };
}

const norm = (v: unknown) => (typeof v === "string" ? v.trim().replace(/\s+/g, " ") : v);

function mentionIds(node: AdfNode | null | undefined): string[] {
  if (!node) return [];
  const own = node.type === "mention" ? [String(node.attrs?.id)] : [];
  return [...own, ...(node.content ?? []).flatMap(mentionIds)];
}

/** Why `actual` does not meet `expected` (null when it does). */
export function mismatch(expected: ExpectedValue, actual: unknown): string | null {
  if ("equals" in expected) {
    const want = expected.equals;
    const ok =
      norm(actual) === norm(want) ||
      (actual !== null && want !== null && String(norm(actual)) === String(norm(want)));
    return ok ? null : `expected ${JSON.stringify(want)}, got ${JSON.stringify(actual)}`;
  }
  if ("set" in expected) {
    const got = [...((actual as string[]) ?? [])].sort();
    const want = [...expected.set].sort();
    return JSON.stringify(got) === JSON.stringify(want) ? null : `expected set ${want}, got ${got}`;
  }
  if ("visibleText" in expected) {
    const text = norm(adfToText(actual as AdfNode));
    if (text !== norm(expected.visibleText)) return `expected text "${expected.visibleText}", got "${text}"`;
    const mentions = [...new Set(mentionIds(actual as AdfNode))].sort();
    const want = [...(expected.mentions ?? [])].sort();
    return JSON.stringify(mentions) === JSON.stringify(want)
      ? null
      : `expected mentions ${want}, got ${mentions}`;
  }
  return "table values are not checked by this helper";
}

/** Every way the end state misses the expectation (empty when it meets it). */
export function unmet(expectation: Expectation, initial: Site, site: Site): string[] {
  const problems: string[] = [];
  const changes = diff(initial, site).filter(
    (c) => !(c.kind === "updated" && c.fields.every((f) => BOOKKEEPING.has(f))),
  );
  const claimed = new Set<RecordChange>();
  for (const entity of expectation.entities) {
    if (entity.kind === "create") {
      const created = changes.filter((c) => c.kind === "created" && c.table === entity.table);
      const fits = created.filter((c) =>
        Object.entries(entity.fields).every(
          ([f, v]) => mismatch(v, (c.kind === "created" ? c.after : {})[f as never]) === null,
        ),
      );
      if (fits.length !== (entity.count ?? 1))
        problems.push(`${entity.ref}: ${fits.length} created records fit, expected ${entity.count ?? 1}`);
      for (const c of fits) claimed.add(c);
      continue;
    }
    const change = changes.find((c) => c.table === entity.table && c.id === entity.id);
    if (change) claimed.add(change);
    if (entity.kind === "delete") {
      if (change?.kind !== "deleted") problems.push(`${entity.ref}: not deleted`);
      continue;
    }
    const record = site.get(entity.table, entity.id) as unknown as Record<string, unknown>;
    for (const [field, value] of Object.entries(entity.fields)) {
      const why = mismatch(value, record?.[field]);
      if (why) problems.push(`${entity.ref}.${field}: ${why}`);
    }
    if (change?.kind === "updated")
      for (const f of change.fields)
        if (!BOOKKEEPING.has(f) && !(f in entity.fields))
          problems.push(`${entity.ref}: unexpected change to ${f}`);
  }
  for (const c of changes) if (!claimed.has(c)) problems.push(`collateral: ${c.kind} ${c.table} ${c.id}`);
  return problems;
}

/**
 * The checks every expectation-declared family runs on a task: each reference call succeeds, stays within
 * the budget, and its end state meets the expectation (a refusal writes nothing and declines).
 */
export function referenceProblems<E>(scenario: Scenario<E>, split: Split, index: number): string[] {
  const played = playReference(scenario, split, index);
  const { calls, expectation: x } = played;
  const problems = calls.filter((c) => !c.ok).map((c) => `${c.name} failed: ${c.observation}`);
  if (calls.length > x.budget) problems.push(`${calls.length} calls over the budget of ${x.budget}`);
  const total = x.points.fields + x.points.validate + x.points.verify;
  if (Math.abs(total - 1) > 1e-9) problems.push(`points sum to ${total}`);
  if (x.refuse !== undefined && calls.some((c) => c.effect === "write")) problems.push("a refusal wrote");
  return [...problems, ...unmet(x, played.initial, played.site)];
}
