/**
 * Expectation scaffolding the task families share: the usual points split, and the whole Expectation of a
 * task that must be refused (nothing changes; reading a `validate` record and declining earns the points).
 * The per-family entities and fields stay in each scenario.
 */
import type { EntityExpectation, EntityRef, Expectation } from "../reward/expectation.ts";

/** The points split of a task that does the work: fields 0.7, validate 0.15, verify 0.15. */
export const workPoints = (): Expectation["points"] => ({ fields: 0.7, validate: 0.15, verify: 0.15 });

/** The Expectation of a task that does the work: `entities`, with the usual points split. */
export const workExpectation = (
  entities: EntityExpectation[],
  validate: EntityRef[],
  budget: number,
): Expectation => ({ entities, validate, budget, points: workPoints() });

/**
 * The Expectation of a Jira task that must be refused: no entity changes, and as nothing is written there
 * is nothing to verify, so the points split 0.85 / 0.15 / 0. `names`: the missing things the final answer
 * must name, as the prompt gave them (the decline rule, src/reward/decline.ts).
 */
export const refusalExpectation = (
  refuse: string,
  validate: EntityRef[],
  budget: number,
  names: string[],
): Expectation => ({
  entities: [],
  validate,
  refuse,
  refuseNames: names,
  budget,
  points: { fields: 0.85, validate: 0.15, verify: 0 },
});
