/**
 * An issue's history (jira/history.ts) as Jira presents it: a Changelog bean per entry, and the
 * `changelog` expansion of getIssue and JQL search (a PageOfChangelogs holding the first 100, oldest first).
 */
import { jiraTime } from "../clock.ts";
import type { Site } from "../site.ts";
import { historyOf } from "./history.ts";
import type { IssueChange } from "./model.ts";
import { presentUserById } from "./present.ts";

/** The most history entries one page (or the expansion) holds. */
export const CHANGELOG_PAGE_CAP = 100;

/** A Changelog bean. */
export function presentChange(site: Site, base: string, change: IssueChange) {
  return {
    id: change.id,
    author: presentUserById(site, base, change.authorId),
    created: jiraTime(change.created),
    items: change.items,
  };
}

/** getIssue's `changelog` expansion: the issue's first 100 history entries, oldest first. */
export function changelogExpansion(site: Site, base: string, issueId: string) {
  const histories = historyOf(site, issueId);
  const shown = histories.slice(0, CHANGELOG_PAGE_CAP);
  return {
    startAt: 0,
    maxResults: shown.length,
    total: histories.length,
    histories: shown.map((change) => presentChange(site, base, change)),
  };
}
