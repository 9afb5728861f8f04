/**
 * Expectation: what must be true when a task is done, declared as plain data (it is serialised into
 * episodes.jsonl and the HTML drill-down). The state verdict and R1 are both derived from it, so they
 * cannot disagree, and a scenario carries no reward code: it declares the entities the task creates,
 * changes or deletes with the exact value of every field it asks for; every other record, and every
 * field nobody asked for, must hold what it held before (or, on a created record, what the API sets when
 * the field is omitted).
 *
 * One normalisation only: strings are compared after trimming and collapsing internal whitespace runs.
 * No case folding, no substring matching. Rich text (ADF, storage XHTML, wiki markup) is compared by its
 * visible text whatever representation the API accepted.
 */
import type { TableName } from "../sandbox/site.ts";

/** One required block of a rich-text value: its visible text (whitespace-normalised) and kind. */
export type ExpectedBlock =
  /** A heading (of this level, when given) with this text. */
  | { heading: string; level?: number }
  /** A paragraph with this text. */
  | { paragraph: string }
  /** A table with exactly these rows (header row first when given). */
  | { table: { header?: string[]; rows: string[][] } };

/**
 * The block structure a prompt asks for: the value ends with exactly these top-level blocks, in order;
 * before them, blocks whose visible text is `before` (the kept body an appended section follows), or
 * nothing at all when `before` is absent ("the body is a single table").
 */
export interface ExpectedBlocks {
  before?: string;
  blocks: ExpectedBlock[];
}

/** An expected field value. */
export type ExpectedValue =
  /** Exactly this value; strings after whitespace normalisation; ids given as numbers or strings match. */
  | { equals: string | number | boolean | null }
  /** Exactly one of these values (each as `equals`), for values with several canonical forms (a page's web URL). */
  | { oneOf: (string | number)[] }
  /** Rich text whose visible text equals `text` (block structure may differ); `mentions`: the account ids it mentions, as a set. */
  | { visibleText: string; mentions?: string[] }
  /**
   * Rich text whose visible text contains each of these strings verbatim (case-sensitive, whitespace
   * normalised): only for prompts that ask a body to "mention" values without giving its text.
   */
  | { includesText: string[] }
  /** Rich text holding exactly one table whose rows (visible text per cell; header row first when given) are these. */
  | { table: { header?: string[]; rows: string[][] } }
  /** An unordered collection of strings equal to exactly this set. */
  | { set: string[] }
  /** Rich text with this block structure, compared over the parsed document whatever its representation. */
  | { blocks: ExpectedBlocks }
  /** Workflows: a field of a record an earlier step creates, resolved from the end state (src/reward/bindings.ts). */
  | BoundValue
  /** Workflows: a value that names such a record inside its text (a "KEY: summary" title, a page URL). */
  | FillValue;

/**
 * `<binding>.<field>` (`step1.issue.id`, `step1.issue.key`): the field of the created record matched to the
 * create that declares `as: <binding>`. Resolved before judging; a binding with no record matches nothing.
 */
export interface BoundValue {
  bound: string;
}

/**
 * `fill`: an expected value whose strings hold `{<binding>.<field>}` placeholders (`{step1.issue.key}:
 * Fix login`), each replaced by that field of the record matched to the binding before judging.
 */
export interface FillValue {
  fill: ExpectedValue;
}

interface EntityBase {
  /** Short name for explanations and traces ("the new sub-task", "ENG-12"). */
  ref: string;
  /** The requirement in words, shown verbatim in explanations and reports. */
  label: string;
  table: TableName;
}

/**
 * `count` records are created in `table` whose requested `fields` hold these values. Field keys are the
 * record's field names, or dotted paths into a nested object (`object.url` of a remote link).
 */
export interface ExpectedCreate extends EntityBase {
  kind: "create";
  fields: Record<string, ExpectedValue>;
  /** How many such records (default 1); matched to created records by best fit. */
  count?: number;
  /** Workflows: later steps refer to the matched record as `<as>.<field>` (e.g. `step1.issue`). */
  as?: string;
}

/** The record `id` of `table` ends with these field values; its other fields are unchanged. */
export interface ExpectedUpdate extends EntityBase {
  kind: "update";
  id: string;
  fields: Record<string, ExpectedValue>;
}

/** The record `id` of `table` is gone. */
export interface ExpectedDelete extends EntityBase {
  kind: "delete";
  id: string;
}

export type EntityExpectation = ExpectedCreate | ExpectedUpdate | ExpectedDelete;

/** A record the agent should read before its first write (the target, its parent or its space). */
export interface EntityRef {
  table: TableName;
  id: string;
  /** Workflows: the record is the one bound to this name (`step1.issue`); `id` is resolved from it. */
  bound?: string;
}

/**
 * One step of a workflow's composed expectation (src/reward/compose-expectation.ts): the R1 keys and the
 * records it validates, its share of the R2 points, and, for a step that cannot be done, why.
 */
export interface ExpectationStep {
  /** The step family's scenario id. */
  scenario: string;
  /** Its `<ref>.<field>` R1 keys (empty for a step that must be declined). */
  keys: string[];
  validate: EntityRef[];
  points: { validate: number; verify: number; decline: number };
  /** The step cannot be done: the final answer must decline it (after a read of a `validate` record). */
  refuse?: string;
  /** With `refuse`: the missing things the final answer must name (the decline rule, decline.ts). */
  refuseNames?: string[];
}

export interface Expectation {
  /** Every entity the task creates, changes or deletes. Empty for a task that must not change anything. */
  entities: EntityExpectation[];
  /**
   * Reads that validate before the first write: a successful read whose request names one of these
   * records or whose response contains it (a search counts only if its result holds the record).
   * Verification is derived: a read of a mutated record after the last write.
   */
  validate: EntityRef[];
  /**
   * For tasks that cannot be done (level 3): the reason, in words. The reward pays an unchanged end state
   * with a final answer that declines (says it cannot be done, names `refuseNames`, claims no success),
   * after a read of a `validate` record; any successful write is a collateral change.
   */
  refuse?: string;
  /**
   * With `refuse`: the missing things the final answer must name (the person, status, link type, issue
   * type, priority, label or page, as the prompt gave it), judged by the decline rule (`decline.ts`).
   */
  refuseNames?: string[];
  /** Most tool calls allowed. */
  budget: number;
  /**
   * How the points split: `fields` over every requested field of every entity (`weights` by
   * `<ref>.<field>` key, equal otherwise), `validate` and `verify` for R2. They sum to exactly 1.
   */
  points: { fields: number; validate: number; verify: number; decline?: number };
  weights?: Record<string, number>;
  /** Workflows: the steps, in order; R2 and the score's progress are judged per step. */
  steps?: ExpectationStep[];
}
