/**
 * The second pass's rules, each turned off (src/reward/rules.ts): with them off the probes of their
 * class are judged wrong again (the audit's "before"), with them on right, so the before/after counts
 * that audit-reward prints are measured, not written down. Also: the Jira REST v2 probe, where a
 * mention travels as `[~accountid:<id>]` wiki markup, passes a mention task.
 */
import { describe, expect, it } from "vitest";
import { formatClassCounts } from "../src/audit/format.ts";
import { countByClass, type ProbeResult, probeScenario, probeTask } from "../src/audit/run-probes.ts";
import type { Expectation } from "../src/reward/expectation.ts";
import { ALL_RULES_OFF, ALL_RULES_ON, withRulesOff } from "../src/reward/rules.ts";
import { tasksFor } from "../src/scenarios/frozen.ts";
import { findScenario } from "../src/scenarios/index.ts";

const first = (id: string, pick: (task: { expected: unknown }) => boolean) => {
  const scenario = findScenario(id);
  const task = tasksFor(scenario, "eval").find((t) => pick(t as { expected: unknown }));
  if (!task) throw new Error(`no such task in ${id}`);
  return probeTask(scenario, task);
};
const of = (results: ProbeResult[], kind: string) => {
  const found = results.filter((r) => r.kind === kind && !r.void);
  expect(found.length, kind).toBeGreaterThan(0);
  return found;
};

describe("second-pass rules off", () => {
  it("judges a blocks expectation by visible text alone, and leaves other expectations as they are", () => {
    const x = {
      entities: [
        {
          kind: "update",
          ref: "p",
          label: "p",
          table: "pages",
          id: "1",
          fields: {
            title: { equals: "T" },
            body: { blocks: { before: "Kept.", blocks: [{ heading: "H", level: 2 }, { paragraph: "P" }] } },
          },
        },
      ],
    } as unknown as Expectation;
    const off = withRulesOff(x, ALL_RULES_OFF);
    expect((off.entities[0] as { fields: unknown }).fields).toEqual({
      title: { equals: "T" },
      body: { includesText: ["Kept.", "H", "P"] },
    });
    expect(withRulesOff(x, ALL_RULES_ON)).toBe(x);
  });

  it("decline text: 'Done.' after the reads passed before, fails now", () => {
    const results = first("jira-comment-v1", (t) => (t.expected as { variant: string }).variant === "refuse");
    for (const r of of(results, "claims success"))
      expect([r.okBefore, r.ok], r.detail).toEqual([false, true]);
    for (const r of of(results, "another wording")) expect(r.ok, r.detail).toBe(true);
  });

  it("metadata: a remote link with Confluence's globalId failed before, passes now", () => {
    const results = first("cross-product-page-link-v1", () => true);
    for (const r of of(results, "metadata")) expect([r.okBefore, r.ok], r.detail).toEqual([false, true]);
    for (const r of of(results, "unrequested field"))
      expect([r.okBefore, r.ok], r.detail).toEqual([true, true]);
  });

  it("blocks: a look-alike structure passed before, fails now", () => {
    const results = first("confluence-page-update-v1", () => true);
    const lookAlikes = of(results, "look-alike structure");
    expect(lookAlikes.some((r) => !r.okBefore)).toBe(true);
    for (const r of lookAlikes) expect(r.ok, r.detail).toBe(true);
  });

  it("counts per class, and the Jira REST v2 probe passes every mention task of jira-comment", () => {
    const scenario = findScenario("jira-comment-v1");
    const audit = probeScenario(scenario, tasksFor(scenario, "eval"));
    const v2 = of(audit.results, "Jira REST v2");
    const mentions = tasksFor(scenario, "eval").filter(
      (t) => (t.expected as { mentionAccountId: string | null }).mentionAccountId,
    );
    expect(mentions.length).toBeGreaterThan(0);
    expect(v2.filter((r) => mentions.some((t) => t.id === r.task)).length).toBe(mentions.length);
    for (const r of v2) expect(r.ok, r.task).toBe(true);
    const counts = countByClass([audit]);
    const success = counts.find((c) => c.kind === "claims success")!;
    expect(success.wrongBefore).toBeGreaterThan(0);
    expect(success.wrongAfter).toBe(0);
    expect(formatClassCounts(counts)).toMatch(/\| claims success \| fail \| \d+ \| [1-9]\d* \| 0 \|/);
  });
});
