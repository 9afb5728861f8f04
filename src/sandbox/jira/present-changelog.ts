/**
 * An issue's history (jira/history.ts) as Jira presents it: a Changelog bean per entry, and the
 * `changelog` expansion of getIssue and JQL search (a PageOfChangelogs holding the most recent 100, newest
 * first, as the published document describes the expansion: "sorted by date, starting from the most recent").
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

/**
 * The `changelog` expansion: the issue's most recent 100 history entries, newest first (an older one is
 * read from getChangeLogs, which pages through all of them oldest first).
 */
export function changelogExpansion(site: Site, base: string, issueId: string) {
  const histories = historyOf(site, issueId);
  const shown = histories.slice(-CHANGELOG_PAGE_CAP).reverse();
  return {
    startAt: 0,
    maxResults: shown.length,
    total: histories.length,
    histories: shown.map((change) => presentChange(site, base, change)),
  };
}
