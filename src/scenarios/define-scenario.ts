/**
 * defineScenario: one task family, declared in one file. A scenario generates tasks from a seed (prompt
 * paraphrases, entities drawn from the site, distractors), declares each task's Expectation (the end
 * state it asks for; the reward engine derives every check from it), and carries a reference solution
 * that must score exactly 1.0, and its solutions through the alias tool sets (alias-solution.ts), all in
 * its folder.
 *
 * `defineScenario<E>` returns a `Scenario<E>` (typed expected values for the folder's own code and
 * tests); every member that takes `E` is a method, so it is bivariant in `E` and a `Scenario<E>` is a
 * `Scenario` as the registry lists it, with no cast. Keep new members that take `E` as methods.
 */

import type { Expectation } from "../reward/expectation.ts";
import { checkExpectation } from "../reward/expectation-rules.ts";
import type { Random } from "../sandbox/random.ts";
import type { Site } from "../sandbox/site.ts";
import type { ToolCallRequest, ToolCallResult } from "../tools/tool-call-result.ts";
import type { AliasSolutions } from "./alias-solution.ts";

export type Split = "eval" | "train";

/**
 * 1: the paper's task; 2: harder (look-alikes, lookups by description, namesakes); 3: multi-hop lookups,
 * pagination, distractors, and tasks that must be refused when they cannot be done. 4–6 are workflow
 * levels (src/scenarios/workflows): 4 lists the steps, 5 states the goal, 6 adds a step that cannot be
 * done (declined in the final answer) and distractors across both products.
 */
export type Level = 1 | 2 | 3 | 4 | 5 | 6;

/** What a workflow step can hand on to a later one: a record an earlier step created. */
export type BoundKind = "issue" | "page";

/**
 * A workflow step's target that an earlier step creates (src/scenarios/workflows): the record, as the
 * earlier steps' references leave it on the generation site, and how the prompt names it ("the new
 * issue"), never by its key, which the agent's own create decides.
 */
export interface BoundTarget {
  kind: BoundKind;
  id: string;
  describe: string;
}

export interface GenerateContext {
  /** The task's site, freshly built from its seed; the generator may add records to it (distractors). */
  site: Site;
  random: Random;
  level: Level;
  split: Split;
  /** The task's index in its split (a generator may cycle variants by it, e.g. within a level). */
  index: number;
  /** Workflow steps only: the target is this record an earlier step creates (see `step.consumes`). */
  bound?: BoundTarget;
}

/** What a generator returns: the user prompt and the values the reward checks against. */
export interface GeneratedTask<E> {
  prompt: string;
  expected: E;
  /** Workflow tasks: the scenario id of each step's family, in order (Task.steps). */
  steps?: string[];
}

/**
 * How a family serves as a workflow step (src/scenarios/workflows): the kind of record its task creates
 * (which later steps may target), and the kinds of target its generator accepts as `ctx.bound`.
 */
export interface StepHook {
  produces?: { kind: BoundKind; table: "issues" | "pages" };
  consumes?: readonly BoundKind[];
}

/**
 * The reference solution: a generator that yields tool calls and receives each call's result, so later
 * calls can use ids the site returned (e.g. the id of the page it just created). Its return value is
 * the final answer.
 */
export type ReferenceSolution = Generator<ToolCallRequest, string, ToolCallResult>;

export interface RewardContext {
  /** Base URL the episode's site is served at (self links and page web URLs start with it). */
  baseUrl: string;
  /** Where the site is also served over REST (the env server's `/s/<session>`), when it is. */
  restBaseUrl?: string;
}

export interface ScenarioSpec<E> {
  /** `<system>-<intent>-vN`; bump N when tasks or checks change. */
  id: string;
  description: string;
  /** Tool names (default catalogue) the agent is offered. */
  tools: string[];
  /**
   * Reads some of its tasks cannot be solved without (a level-3 hop through a remote link, a lookup by
   * label): groups of alternative operationIds, each needing at least one tool in a tool set that is to
   * cover the family (see tools/aliases/tool-sets.ts).
   */
  lookups?: readonly (readonly string[])[];
  /** The levels this family generates (default [1, 2]); eval splits spread their 12 tasks over them. */
  levels?: readonly Level[];
  /** Task-introduced names (titles, summaries, labels) differ between splits: these pools are disjoint. */
  generate(ctx: GenerateContext): GeneratedTask<E>;
  /**
   * The task's Expectation (src/reward/expectation.ts), given its initial site and where the episode's
   * site is served. Checked on every call (points sum to 1, plain JSON data...).
   */
  expect(task: Task<E>, site: Site, ctx: RewardContext): Expectation;
  /**
   * Names the task introduces (new titles, summaries, labels); eval and train must never share one.
   * Return [] only when the task makes no names up (say why in the scenario's top comment).
   */
  introduces(expected: E): string[];
  reference(task: Task<E>): ReferenceSolution;
  /**
   * Its solutions through the alias tool sets (its folder's `alias-solutions.ts`), one for each set that
   * covers it; a test checks they exist exactly for the sets whose tools can run what it needs.
   */
  aliasSolutions?: AliasSolutions<E>;
  /** Present when the family can be a workflow step. */
  step?: StepHook;
}

export interface Scenario<E = unknown> extends ScenarioSpec<E> {}

export interface Task<E = unknown> {
  /** `<scenario>/<split>/<index>`. */
  id: string;
  scenario: string;
  split: Split;
  index: number;
  level: Level;
  /** Seed of the task's site and generator. */
  seed: number;
  prompt: string;
  expected: E;
  /** Workflow tasks only: the scenario id of each step's family, in order (horizon = steps.length). */
  steps?: string[];
}

export function defineScenario<E>(spec: ScenarioSpec<E>): Scenario<E> {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*-v\d+$/.test(spec.id))
    throw new Error(`Scenario id '${spec.id}' must look like '<system>-<intent>-v1'`);
  if (spec.tools.length === 0) throw new Error(`Scenario ${spec.id} offers no tools`);
  if (typeof spec.introduces !== "function") throw new Error(`Scenario ${spec.id} must declare introduces()`);
  return {
    ...spec,
    expect: (task, site, ctx) => checkExpectation(spec.expect(task, site, ctx), `${spec.id} task ${task.id}`),
  };
}

/** A call in a reference solution. */
export const call = (name: string, args: Record<string, unknown>): ToolCallRequest => ({
  name,
  arguments: args,
});
