/**
 * Moving an issue along the workflow: the status changes, entering a done-category status sets the
 * resolution (the one given on the transition screen, else Done) and the resolution date, leaving it
 * clears both, and the status-category change date moves only when the category changes.
 */
import {
  categoryById,
  DEFAULT_RESOLUTION_ID,
  statusById,
  type Transition,
  transitionsFrom,
} from "./catalog.ts";
import type { Issue } from "./model.ts";

/** The transition with this id if the issue's current status offers it. */
export function availableTransition(issue: Issue, id: string): Transition | undefined {
  return transitionsFrom(issue.statusId).find((t) => t.id === id);
}

export const invalidTransitionMessage = (id: string) => `Transition id '${id}' is not valid for this issue.`;

/** The issue after taking `transition` at time `now`. */
export function applyTransition(
  issue: Issue,
  transition: Transition,
  resolutionId: string | undefined,
  now: number,
): Issue {
  const from = statusById(issue.statusId)!;
  const to = statusById(transition.to)!;
  const done = categoryById(to.categoryId).key === "done";
  return {
    ...issue,
    statusId: to.id,
    resolutionId: done ? (resolutionId ?? DEFAULT_RESOLUTION_ID) : null,
    resolutionDate: done ? now : null,
    statusCategoryChangeDate: from.categoryId === to.categoryId ? issue.statusCategoryChangeDate : now,
    updated: now,
  };
}
