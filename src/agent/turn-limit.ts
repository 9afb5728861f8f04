/**
 * The turn limit of an episode: the one rule every runner uses (eval's rollout, the env server's task
 * listing and session opening, MCP, and through those the TRL and verl loops). A turn that makes no tool
 * call ends the episode, so a policy that makes one call a turn needs its task's whole call budget plus
 * one turn for the final answer: `budget + 1` model requests. The budget scales with the horizon (a
 * workflow's composed expectation adds its steps' budgets), so a 5-step task gets a larger limit than a
 * 1-step one, and the derived limit never cuts an episode before its call budget does. A limit the user
 * gives (eval's `--max-turns`, a training config's `max_turns`) wins.
 */

/** The expectation fields the rule reads (src/reward/expectation.ts). */
export interface TurnBudget {
  /** Most tool calls allowed. */
  budget: number;
}

/** Model requests an episode may make: the user's limit when given, else the task's `budget + 1`. */
export function turnLimit(expectation: TurnBudget, userLimit?: number | null): number {
  if (userLimit !== undefined && userLimit !== null) {
    if (!Number.isInteger(userLimit) || userLimit < 1)
      throw new RangeError(`A turn limit must be a positive integer, got ${userLimit}`);
    return userLimit;
  }
  return expectation.budget + 1;
}

/** How run files and reports name the derived limit when no user limit was given. */
export const PER_TASK_TURNS = "per task (call budget + 1)";
