/**
 * How Jira's user pickers match a `query`: case-insensitively against the start of the display name,
 * the start of any word in it, or the start of the email address or of any word in its local part; an
 * exact accountId matches too (as on Cloud: pycontribs `assign_issue` resolves its assignee that way).
 */
import type { JiraUser } from "./model.ts";

export function userMatchesQuery(user: JiraUser, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (q === "" || user.accountId === query.trim()) return true;
  const name = user.displayName.toLowerCase();
  const email = user.emailAddress.toLowerCase();
  const local = email.split("@")[0] ?? "";
  return (
    name.startsWith(q) ||
    name.split(/\s+/).some((word) => word.startsWith(q)) ||
    email.startsWith(q) ||
    local.split(/[._-]/).some((word) => word.startsWith(q))
  );
}

/** Users in the order pickers list them: by display name, then account id. */
export function byDisplayName(a: JiraUser, b: JiraUser): number {
  const [x, y] = [a.displayName.toLowerCase(), b.displayName.toLowerCase()];
  if (x !== y) return x < y ? -1 : 1;
  return a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0;
}
