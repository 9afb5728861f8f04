/**
 * ORDER BY: compiles sort keys into a comparator over issues. Empty values sort after every value in
 * ascending order (first in descending). The order is always total: ties are broken by issue id, so
 * that pages of a search never overlap or skip.
 *
 * Without ORDER BY, results come newest first: `ORDER BY created DESC`, then id descending (the site's
 * ids grow with creation, so this is also "highest key first" within a project).
 */
import type { Issue } from "../model.ts";
import type { SortKey } from "./ast.ts";
import type { JqlContext } from "./context.ts";
import { semantic } from "./errors.ts";
import { findSearchableField, type SearchableField, type SortValue } from "./searchable-fields.ts";

const MAX_SORT_FIELDS = 7;

export type Comparator = (a: Issue, b: Issue) => number;

export function compileOrder(keys: SortKey[], ctx: JqlContext): Comparator {
  if (keys.length === 0) return (a, b) => b.created - a.created || Number(b.id) - Number(a.id);
  if (keys.length > MAX_SORT_FIELDS) ctx.errors.push(semantic.tooManySortFields);
  const sorts: { field: SearchableField; sign: number }[] = [];
  for (const key of keys) {
    const field = findSearchableField(key.field);
    if (!field) ctx.errors.push(semantic.noField(key.field));
    else if (!field.sort) ctx.errors.push(semantic.notSortable(key.field));
    else if (!sorts.some((s) => s.field === field))
      sorts.push({ field, sign: key.direction === "desc" ? -1 : 1 });
  }
  return (a, b) => {
    for (const { field, sign } of sorts) {
      const order = compareValues(field.sort!(a, ctx), field.sort!(b, ctx));
      if (order !== 0) return sign * order;
    }
    return Number(a.id) - Number(b.id);
  };
}

function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a) < String(b) ? -1 : 1;
}
