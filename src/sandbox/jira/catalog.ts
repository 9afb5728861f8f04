/**
 * The fixed configuration every simulated Jira site shares: status categories, statuses, the workflow
 * and its transitions, priorities, resolutions and issue link types. Ids follow what real Cloud sites
 * use (see reference/atlassian-api.md §6.1).
 */

export interface StatusCategory {
  id: number;
  key: "new" | "indeterminate" | "done";
  colorName: string;
  name: string;
}

export interface Status {
  id: string;
  name: string;
  description: string;
  categoryId: number;
}

export interface Transition {
  id: string;
  name: string;
  /** Status ids the transition is available from. */
  from: string[];
  to: string;
  /** Whether its screen offers the resolution field. */
  resolutionScreen: boolean;
}

export const STATUS_CATEGORIES: readonly StatusCategory[] = [
  { id: 2, key: "new", colorName: "blue-gray", name: "To Do" },
  { id: 4, key: "indeterminate", colorName: "yellow", name: "In Progress" },
  { id: 3, key: "done", colorName: "green", name: "Done" },
];

export const TO_DO = "10000";
export const IN_PROGRESS = "3";
export const IN_REVIEW = "10002";
export const DONE = "10001";

export const STATUSES: readonly Status[] = [
  { id: TO_DO, name: "To Do", description: "Work that has not been started.", categoryId: 2 },
  { id: IN_PROGRESS, name: "In Progress", description: "Work that is actively being done.", categoryId: 4 },
  { id: IN_REVIEW, name: "In Review", description: "Work that is waiting for review.", categoryId: 4 },
  { id: DONE, name: "Done", description: "Work that is complete.", categoryId: 3 },
];

/**
 * The workflow. Not every status is reachable from every other: moving from To Do to In Review takes
 * two transitions, which is what makes reading the available transitions worthwhile.
 */
export const TRANSITIONS: readonly Transition[] = [
  { id: "11", name: "Stop Progress", from: [IN_PROGRESS], to: TO_DO, resolutionScreen: false },
  { id: "21", name: "Start Progress", from: [TO_DO, IN_REVIEW], to: IN_PROGRESS, resolutionScreen: false },
  { id: "31", name: "Done", from: [TO_DO, IN_PROGRESS, IN_REVIEW], to: DONE, resolutionScreen: true },
  { id: "41", name: "Request Review", from: [IN_PROGRESS], to: IN_REVIEW, resolutionScreen: false },
  { id: "51", name: "Reopen", from: [DONE], to: TO_DO, resolutionScreen: false },
];

export const PRIORITIES = [
  { id: "1", name: "Highest" },
  { id: "2", name: "High" },
  { id: "3", name: "Medium" },
  { id: "4", name: "Low" },
  { id: "5", name: "Lowest" },
] as const;

export const DEFAULT_PRIORITY_ID = "3";

export const RESOLUTIONS = [
  { id: "10000", name: "Done", description: "Work has been completed on this issue." },
  { id: "10001", name: "Won't Do", description: "This issue won't be actioned." },
  { id: "10002", name: "Duplicate", description: "The problem is a duplicate of an existing issue." },
  { id: "10003", name: "Cannot Reproduce", description: "This issue could not be reproduced." },
] as const;

export const DEFAULT_RESOLUTION_ID = "10000";

export const ISSUE_LINK_TYPES = [
  { id: "10000", name: "Blocks", inward: "is blocked by", outward: "blocks" },
  { id: "10001", name: "Cloners", inward: "is cloned by", outward: "clones" },
  { id: "10002", name: "Duplicate", inward: "is duplicated by", outward: "duplicates" },
  { id: "10003", name: "Relates", inward: "relates to", outward: "relates to" },
] as const;

export const statusById = (id: string) => STATUSES.find((s) => s.id === id);
export const categoryById = (id: number) => STATUS_CATEGORIES.find((c) => c.id === id)!;
export const priorityById = (id: string) => PRIORITIES.find((p) => p.id === id);
export const resolutionById = (id: string) => RESOLUTIONS.find((r) => r.id === id);

/** Transitions available from a status. */
export const transitionsFrom = (statusId: string) => TRANSITIONS.filter((t) => t.from.includes(statusId));
