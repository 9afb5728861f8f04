/**
 * Merges an IssueUpdateDetails body (`fields` plus `update` operations) into one map of field values
 * to validate: `set` replaces a value, `labels` also take `add` and `remove`, `parent` takes
 * `set: {"none": true}`, and `comment` takes `add: {"body": ADF}` where the screen offers it. Fields the
 * operation cannot set, and fields named in both `fields` and `update`, become `errors` entries.
 */

import type { AdfDocument } from "../adf/types.ts";
import { validateAdf } from "../adf/validate.ts";
import { cannotSet, type FieldErrors, isPlainObject } from "./issue-input.ts";

export interface UpdateBody {
  fields?: Record<string, unknown>;
  update?: Record<string, Record<string, unknown>[]>;
}

export interface MergeOptions {
  /** Field ids this operation may set (its "screen"). */
  settable: ReadonlySet<string>;
  /** The labels before the change, for `add` and `remove`. */
  currentLabels: readonly string[];
  /** Whether `update.comment: [{add: {body}}]` is accepted. */
  comments: boolean;
}

export interface MergedFields {
  /** Field id → requested value (labels already combined into the final list). */
  values: Record<string, unknown>;
  errors: FieldErrors;
  /** Comment bodies to add, already validated. */
  comments: AdfDocument[];
}

export function mergeFieldUpdates(body: UpdateBody, options: MergeOptions): MergedFields {
  // Keyed by whatever field names a client sends: without a prototype, and asked with Object.hasOwn, a
  // name such as "toString" or "__proto__" is an unknown field like any other.
  const values: Record<string, unknown> = Object.create(null);
  const errors: FieldErrors = Object.create(null);
  const comments: AdfDocument[] = [];
  const fields = body.fields ?? {};
  const update = body.update ?? {};
  for (const [field, value] of Object.entries(fields)) {
    if (Object.hasOwn(update, field))
      errors[field] = `Field '${field}' cannot be set in both 'fields' and 'update'.`;
    else if (!options.settable.has(field)) errors[field] = cannotSet(field);
    else values[field] = value;
  }
  for (const [field, operations] of Object.entries(update)) {
    if (Object.hasOwn(fields, field)) continue;
    if (field === "comment" && options.comments) {
      const problem = collectComments(operations, comments);
      if (problem) errors.comment = problem;
      continue;
    }
    if (!options.settable.has(field)) {
      errors[field] = cannotSet(field);
      continue;
    }
    const problem =
      field === "labels"
        ? applyLabelOperations(operations, options.currentLabels, values)
        : applySetOperations(field, operations, values);
    if (problem) errors[field] = problem;
  }
  return { values, errors, comments };
}

const unsupported = (verb: string, field: string) =>
  `The operation '${verb}' is not supported for the field '${field}'.`;

function applySetOperations(
  field: string,
  operations: Record<string, unknown>[],
  values: Record<string, unknown>,
): string | null {
  for (const operation of operations) {
    for (const [verb, value] of Object.entries(operation)) {
      if (verb !== "set") return unsupported(verb, field);
      const none = field === "parent" && isPlainObject(value) && value.none === true;
      values[field] = none ? null : value;
    }
  }
  return null;
}

/** Runs label add/remove/set against the current labels; the final list is validated like `fields.labels`. */
function applyLabelOperations(
  operations: Record<string, unknown>[],
  current: readonly string[],
  values: Record<string, unknown>,
): string | null {
  let labels: unknown[] = [...current];
  for (const operation of operations) {
    for (const [verb, value] of Object.entries(operation)) {
      if (verb === "set") {
        if (!Array.isArray(value)) return "data was not an array";
        labels = [...value];
      } else if (verb === "add" || verb === "remove") {
        if (typeof value !== "string") return "The label must be a string.";
        labels = labels.filter((label) => label !== value);
        if (verb === "add") labels.push(value);
      } else return unsupported(verb, "labels");
    }
  }
  values.labels = labels;
  return null;
}

function collectComments(operations: Record<string, unknown>[], into: AdfDocument[]): string | null {
  for (const operation of operations) {
    for (const [verb, value] of Object.entries(operation)) {
      if (verb !== "add") return unsupported(verb, "comment");
      const body = isPlainObject(value) ? value.body : undefined;
      const problem = validateAdf(body);
      if (problem) return problem;
      into.push(structuredClone(body) as AdfDocument);
    }
  }
  return null;
}
