/**
 * The workflow task generator: a composition of the catalogue turned into one task. Steps are generated
 * in order, each by its family's own generator: a step on records of the initial site is generated on the
 * task's site (its distractors stay there); a bound step is generated on a fork where the earlier steps'
 * references have run (replay.ts), given the record its feeder created as `ctx.bound`, described ("the
 * new issue "Crash on save""), never by id or key. Level 4 runs the families at level 1, levels 5 and 6 at
 * level 2 (look-alikes, lookups by name); level 6 adds a step that cannot be done (a family's level-3
 * refusal) and twins of the named records in each product the workflow touches. A draw that does not
 * compose (two writes to one field) is drawn again, on an untouched site.
 */

import { existsSync, readFileSync } from "node:fs";
import { DEFAULT_BASE_URL } from "../../sandbox/fixtures/default-site.ts";
import type { Random } from "../../sandbox/random.ts";
import type { Site } from "../../sandbox/site.ts";
import { addTwinIssue, addTwinPage } from "../cross-product-page-link/picks.ts";
import type { BoundTarget, GenerateContext, GeneratedTask, Level } from "../define-scenario.ts";
import { frozenPath } from "../frozen.ts";
import { type Composition, compositions, productOf, type Scope, type StepSpec } from "./catalogue.ts";
import { workflowExpectation } from "./compose-workflow.ts";
import { workflowPrompt } from "./prompt.ts";
import { replaySteps } from "./replay.ts";
import { familyOf, type WorkflowExpected, type WorkflowStep } from "./workflow-task.ts";

/**
 * Families whose level-3 tasks include one that cannot be done, by scope (the level-6 declined step),
 * tried in a random order until one draws such a task. The Confluence families decline only on one
 * site in four (site-picks.ts mustDecline), so a Confluence workflow may decline a Jira step instead:
 * level 6 spans both products.
 */
export const DECLINABLE: Record<Scope, readonly string[]> = {
  jira: ["jira-assign-v1", "jira-comment-v1", "jira-create-issue-v1", "jira-edit-fields-v1"],
  confluence: ["confluence-page-update-v1", "jira-assign-v1", "jira-edit-fields-v1"],
  "cross-product": ["jira-assign-v1", "jira-edit-fields-v1", "confluence-page-update-v1"],
  heldout: ["jira-link-issues-v1", "confluence-page-update-v1"],
};

const ATTEMPTS = 25;
const CTX = { baseUrl: DEFAULT_BASE_URL };

type Spec = StepSpec & { declines?: boolean };

export function generateWorkflow(
  id: string,
  scope: Scope,
  ctx: GenerateContext,
): GeneratedTask<WorkflowExpected> {
  const taken = ctx.split === "train" ? evalNames(id) : new Set<string>();
  const all = compositions(scope);
  const pool = ctx.level === 6 ? all.filter((c) => c.steps.length <= 4) : all;
  let last: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const random = ctx.random.derive(`attempt ${attempt}`);
    const composition = random.pick(pool);
    try {
      // The site takes the attempt's distractors only when it composes.
      return ctx.site.transact((site) => {
        const task = attemptWorkflow(scope, ctx, site, random, composition);
        const clash = introduced(task.expected).find((n) => taken.has(n));
        if (clash) throw new Error(`the draw introduces "${clash}", a name of the eval split`);
        return task;
      });
    } catch (error) {
      last = error;
    }
  }
  throw new Error(`No ${scope} workflow composed for task ${ctx.split}/${ctx.index}: ${String(last)}`);
}

function attemptWorkflow(
  scope: Scope,
  ctx: GenerateContext,
  site: Site,
  random: Random,
  composition: Composition,
): GeneratedTask<WorkflowExpected> {
  const specs: Spec[] = composition.steps.map((s) => ({ ...s }));
  if (ctx.level === 6) {
    const at = random.int(0, specs.length);
    for (const s of specs) if (s.bind !== undefined && s.bind >= at) s.bind += 1;
    specs.splice(at, 0, { family: "", declines: true });
  }
  const steps: WorkflowStep[] = [];
  const requests: string[] = [];
  const id = `${composition.id}${ctx.level === 6 ? " + declined" : ""}`;
  const partial = () => ({
    id: `workflow ${id}`,
    split: ctx.split,
    seed: 0,
    expected: { composition: id, steps },
  });
  specs.forEach((spec, i) => {
    const r = random.derive(`step ${i + 1}`);
    const level: Level = spec.declines ? 3 : ctx.level === 4 ? 1 : 2;
    if (spec.declines) {
      const { id: declined, index } = declinedStep(scope, ctx, site, r);
      const family = familyOf(declined);
      const made = family.generate({
        site,
        random: r.derive(`declined ${index}`),
        level,
        split: ctx.split,
        index,
      });
      steps.push({ family: family.id, level, index, declines: true, expected: made.expected });
      requests.push(made.prompt);
      return;
    }
    const family = familyOf(spec.family);
    if (spec.bind === undefined) {
      const made = family.generate({ site, random: r, level, split: ctx.split, index: ctx.index });
      steps.push({ family: family.id, level, index: ctx.index, expected: made.expected });
      requests.push(made.prompt);
      return;
    }
    const bind = spec.bind;
    for (const tryLevel of level === 1 ? ([1] as const) : ([level, 1] as const)) {
      const after = site.fork();
      const replayed = replaySteps(partial(), after, CTX);
      const target = replayed[bind]?.made;
      if (!target) throw new Error(`step ${bind + 1} of ${id} creates nothing to bind`);
      const bound = describeBound(after, target, familyOf(specs[bind]!.family).id);
      const before = after.digest();
      const made = family.generate({
        site: after,
        random: r.derive(`level ${tryLevel}`),
        level: tryLevel,
        split: ctx.split,
        index: ctx.index,
        bound,
      });
      // A bound step is generated on a fork: what its generator adds would not reach the task's site.
      if (after.digest() !== before) continue;
      steps.push({
        family: family.id,
        level: tryLevel,
        index: ctx.index,
        bind,
        target,
        expected: made.expected,
      });
      requests.push(made.prompt);
      return;
    }
    throw new Error(`${family.id} adds records to the site even at level 1, so it cannot be a bound step`);
  });
  const draft = partial();
  const x = workflowExpectation(draft, site, CTX);
  if (ctx.level === 6) {
    addDistractors(site, random.derive("distractors"), x.validate, steps);
    workflowExpectation(draft, site, CTX);
  }
  return {
    prompt: workflowPrompt(random.derive("prompt"), ctx.level, requests),
    expected: { composition: id, steps },
    steps: steps.map((s) => s.family),
  };
}

/** The names a workflow task introduces: its steps' (each family's `introduces`), lower case. */
export const introduced = (e: WorkflowExpected): string[] =>
  e.steps.flatMap((s) => familyOf(s.family).introduces(s.expected)).map((n) => n.toLowerCase());

const evalNameCache = new Map<string, Set<string>>();

/**
 * The names the frozen eval split introduces: train draws avoid them, since two families' pools may
 * share a word across splits (a page-label label of eval is a page-update heading of train).
 */
function evalNames(id: string): Set<string> {
  let names = evalNameCache.get(id);
  if (!names) {
    const path = frozenPath(id);
    const tasks = existsSync(path)
      ? (JSON.parse(readFileSync(path, "utf8")) as { tasks: { expected: WorkflowExpected }[] }).tasks
      : [];
    names = new Set(tasks.flatMap((t) => introduced(t.expected)));
    evalNameCache.set(id, names);
  }
  return names;
}

/** A declinable family of the scope and an index at which its level-3 generator draws a task that cannot be done. */
function declinedStep(
  scope: Scope,
  ctx: GenerateContext,
  site: Site,
  random: Random,
): { id: string; index: number } {
  for (const id of random.shuffle(DECLINABLE[scope])) {
    const index = declinedIndex(ctx, site, random, id);
    if (index !== null) return { id, index };
  }
  throw new Error(`no ${scope} family draws a task that cannot be done on this site`);
}

function declinedIndex(ctx: GenerateContext, site: Site, random: Random, id: string): number | null {
  const family = familyOf(id);
  for (let index = 0; index < 12; index++) {
    const probe = site.fork();
    const made = family.generate({
      site: probe,
      random: random.derive(`declined ${index}`),
      level: 3,
      split: ctx.split,
      index,
    });
    const task = {
      id: "probe",
      scenario: id,
      split: ctx.split,
      index,
      level: 3 as const,
      seed: 0,
      prompt: "",
    };
    if (family.expect({ ...task, expected: made.expected }, probe, CTX).refuse !== undefined) return index;
  }
  return null;
}

const DESCRIBE: Record<string, string> = {
  "jira-create-issue-v1": "the new issue",
  "jira-subtask-create-v1": "the new sub-task",
  "confluence-page-create-v1": "the new page",
  "cross-product-page-link-v1": "the new documentation page",
};

/** How the prompt names a record an earlier step creates: by what it is and its new title, never its id or key. */
function describeBound(
  site: Site,
  made: { table: "issues" | "pages"; id: string },
  producer: string,
): BoundTarget {
  const what = DESCRIBE[producer] ?? (made.table === "issues" ? "the new issue" : "the new page");
  const title =
    made.table === "issues" ? site.get("issues", made.id)!.summary : site.get("pages", made.id)!.title;
  return { kind: made.table === "issues" ? "issue" : "page", id: made.id, describe: `${what} "${title}"` };
}

/** Level 6: an issue with the summary of a named issue in another project, a page titled like a named page in another space. */
function addDistractors(
  site: Site,
  random: Random,
  named: readonly { table: string; id: string }[],
  steps: readonly WorkflowStep[],
): void {
  const products = new Set(steps.map((s) => productOf(s.family)));
  const issue = named.flatMap((r) =>
    r.table === "issues" ? [site.get("issues", r.id) ?? []].flat() : [],
  )[0];
  if (issue && (products.has("jira") || products.has("cross-product"))) addTwinIssue(site, random, issue);
  const page = named.flatMap((r) => (r.table === "pages" ? [site.get("pages", r.id) ?? []].flat() : []))[0];
  if (page && (products.has("confluence") || products.has("cross-product")))
    addTwinPage(site, random, page.title, page.spaceId);
}
