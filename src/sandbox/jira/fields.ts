/**
 * Issue field names and the `fields` selection rules shared by getIssue and JQL search:
 * `*all`, `*navigable`, explicit ids, and `-id` exclusions, comma-separated or repeated.
 */

/** Display names of the fields the site models (the `names` expansion). */
export const FIELD_NAMES: Record<string, string> = {
  summary: "Summary",
  description: "Description",
  environment: "Environment",
  issuetype: "Issue Type",
  project: "Project",
  status: "Status",
  priority: "Priority",
  assignee: "Assignee",
  reporter: "Reporter",
  creator: "Creator",
  created: "Created",
  updated: "Updated",
  statuscategorychangedate: "Status Category Changed",
  resolution: "Resolution",
  resolutiondate: "Resolved",
  labels: "Labels",
  duedate: "Due date",
  subtasks: "Sub-tasks",
  issuelinks: "Linked Issues",
  comment: "Comment",
  components: "Components",
  fixVersions: "Fix versions",
  versions: "Affects versions",
  attachment: "Attachment",
  watches: "Watchers",
  parent: "Parent",
};

/** Fields that `*navigable` leaves out (shown only on the issue view). */
const NOT_NAVIGABLE = new Set(["comment", "attachment", "environment"]);

/** The field ids a `fields` request selects out of `available`, in the order of `available`. */
export function selectFieldIds(
  available: readonly string[],
  requested: string[] | undefined,
  fallback: string,
): string[] {
  const tokens = requested && requested.length > 0 ? requested : [fallback];
  const include = new Set<string>();
  const exclude = new Set<string>();
  for (const token of tokens) {
    if (token === "*all") for (const k of available) include.add(k);
    else if (token === "*navigable") for (const k of available) !NOT_NAVIGABLE.has(k) && include.add(k);
    else if (token.startsWith("-")) exclude.add(token.slice(1));
    else include.add(token);
  }
  return available.filter((k) => include.has(k) && !exclude.has(k));
}
