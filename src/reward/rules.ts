/**
 * The rules the reward's second pass added, named so that one can be turned off: the reward audit
 * scores its probes with them off to show what each class failed or passed before the second pass
 * (`audit-reward --before-after`). Training and evaluation always score with every rule on.
 *
 * - `blocks`: a `{ blocks }` expectation is judged by its block structure; off, by its visible text
 *   alone (each block's text contained, as rich text was judged before).
 * - `decline-text`: a decline's answer must say it cannot be done and name what is missing; off, any
 *   final answer declines.
 * - `decisive-search`: an empty search naming what is missing validates a decline; off, it does not.
 * - `metadata`: input fields an operation declares metadata (a remote link's globalId, application,
 *   relationship) are free; off, they are content like every other field (collateral when unrequested).
 */
import type { Expectation, ExpectedValue } from "./expectation.ts";

export const SECOND_PASS_RULES = ["blocks", "decline-text", "decisive-search", "metadata"] as const;
export type SecondPassRule = (typeof SECOND_PASS_RULES)[number];

/** Which second-pass rules are off (none: the reward as it is). */
export type RulesOff = ReadonlySet<SecondPassRule>;

export const ALL_RULES_ON: RulesOff = new Set();
export const ALL_RULES_OFF: RulesOff = new Set(SECOND_PASS_RULES);

/** The expectation as the reward judges it with `off` rules off (the same object when nothing changes). */
export function withRulesOff(expectation: Expectation, off: RulesOff): Expectation {
  if (!off.has("blocks")) return expectation;
  const entities = expectation.entities.map((entity) =>
    entity.kind === "delete"
      ? entity
      : {
          ...entity,
          fields: Object.fromEntries(
            Object.entries(entity.fields).map(([field, value]) => [field, visibleTextOnly(value)]),
          ),
        },
  ) as Expectation["entities"];
  return { ...expectation, entities };
}

/** A `blocks` value judged by its visible text alone: every block's text contained. */
function visibleTextOnly(value: ExpectedValue): ExpectedValue {
  if (!("blocks" in value)) return value;
  const texts = value.blocks.blocks.flatMap((b) =>
    "heading" in b
      ? [b.heading]
      : "paragraph" in b
        ? [b.paragraph]
        : [...(b.table.header ?? []), ...b.table.rows.flat()],
  );
  return { includesText: [...(value.blocks.before ? [value.blocks.before] : []), ...texts] };
}
