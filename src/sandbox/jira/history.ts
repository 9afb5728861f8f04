/**
 * An issue's history (Jira's changelog): every write that changes an issue's fields leaves one entry, by
 * whom and when, with one item per changed field (`from`/`to` ids where the field has them, and their
 * names as `fromString`/`toString`), as Jira records it. Creating an issue and adding comments leave none;
 * linking two issues leaves a `Link` item on each. Entries live in the site's `issueHistory` table, which
 * diffs skip (a record of changes, not a change), so rewards see the same changes as before it existed.
 * Fixture issues start with no history. Read by getIssue `expand=changelog` and getChangeLogs.
 */
import { adfToWiki } from "../adf/adf-to-wiki.ts";
import type { Site } from "../site.ts";
import { stableStringify } from "../stable-stringify.ts";
import { PRIORITIES, RESOLUTIONS, STATUSES } from "./catalog.ts";
import type { ChangeItem, Issue, IssueChange } from "./model.ts";

const HISTORY_ID_START = 10_100;

/** One tracked field: how to read its value (id, shown text) from an issue. */
interface Tracked {
  field: string;
  fieldId: string;
  read(site: Site, issue: Issue): { id: string | null; text: string | null };
  /** What decides whether the field changed, when not its id and text (rich text: the whole document). */
  value?(issue: Issue): unknown;
}

const person = (site: Site, accountId: string | null) => ({
  id: accountId,
  text: accountId === null ? null : (site.get("users", accountId)?.displayName ?? accountId),
});
/** Rich text as Jira's history shows it (wiki markup), compared as the whole document (marks too). */
const rich = (field: "description" | "environment"): Tracked => ({
  field,
  fieldId: field,
  read: (_, i) => plain(i[field] === null ? null : adfToWiki(i[field])),
  value: (i) => (i[field] === null ? null : stableStringify(i[field])),
});
const nameIn = (list: readonly { id: string; name: string }[], id: string | null) =>
  id === null ? null : (list.find((entry) => entry.id === id)?.name ?? id);
const plain = (text: string | null) => ({ id: null, text });

const TRACKED: readonly Tracked[] = [
  { field: "summary", fieldId: "summary", read: (_, i) => plain(i.summary) },
  {
    field: "issuetype",
    fieldId: "issuetype",
    read: (site, i) => ({ id: i.issueTypeId, text: site.get("issueTypes", i.issueTypeId)?.name ?? null }),
  },
  {
    field: "status",
    fieldId: "status",
    read: (_, i) => ({ id: i.statusId, text: nameIn(STATUSES, i.statusId) }),
  },
  {
    field: "resolution",
    fieldId: "resolution",
    read: (_, i) => ({ id: i.resolutionId, text: nameIn(RESOLUTIONS, i.resolutionId) }),
  },
  {
    field: "priority",
    fieldId: "priority",
    read: (_, i) => ({ id: i.priorityId, text: nameIn(PRIORITIES, i.priorityId) }),
  },
  { field: "assignee", fieldId: "assignee", read: (site, i) => person(site, i.assigneeId) },
  { field: "reporter", fieldId: "reporter", read: (site, i) => person(site, i.reporterId) },
  rich("description"),
  rich("environment"),
  {
    field: "labels",
    fieldId: "labels",
    read: (_, i) => plain(i.labels.join(" ")), // "" for none, as Jira shows labels
  },
  { field: "duedate", fieldId: "duedate", read: (_, i) => ({ id: i.duedate, text: i.duedate }) },
  {
    field: "IssueParentAssociation",
    fieldId: "parent",
    read: (site, i) => ({
      id: i.parentId,
      text: i.parentId === null ? null : (site.get("issues", i.parentId)?.key ?? i.parentId),
    }),
  },
];

/** The items of the fields that differ between `before` and `after` (none when nothing tracked changed). */
export function changedItems(site: Site, before: Issue, after: Issue): ChangeItem[] {
  const items: ChangeItem[] = [];
  for (const { field, fieldId, read, value } of TRACKED) {
    if (value && value(before) === value(after)) continue;
    const [from, to] = [read(site, before), read(site, after)];
    if (!value && from.id === to.id && from.text === to.text) continue;
    items.push(item(field, fieldId, from, to));
  }
  return items;
}

/** Records one history entry for the issue, when there is anything to record. */
export function recordChange(site: Site, issueId: string, authorId: string, items: ChangeItem[]): void {
  if (items.length === 0) return;
  const id = String(site.nextId("history", HISTORY_ID_START));
  const entry: IssueChange = { id, authorId, created: site.now(), items };
  site.put("issueHistory", issueId, { issueId, changes: [...historyOf(site, issueId), entry] });
}

/** Stores `after` over `before` and records what changed in its history. */
export function putIssue(site: Site, before: Issue, after: Issue, authorId: string): void {
  const items = changedItems(site, before, after);
  site.put("issues", after.id, after);
  recordChange(site, after.id, authorId, items);
}

/** The `Link` item a new issue link leaves on one of its issues (`phrase` as that issue reads it). */
export function linkItem(other: Issue, phrase: string): ChangeItem {
  return item(
    "Link",
    "issuelinks",
    { id: null, text: null },
    { id: other.key, text: `${phrase} ${other.key}` },
  );
}

/** An issue's history, oldest first. */
export function historyOf(site: Site, issueId: string): readonly IssueChange[] {
  return site.get("issueHistory", issueId)?.changes ?? [];
}

/**
 * A change item, every value present (null where there is none, as Jira writes them and the published
 * example shows: a client reading `toString` must never find Object.prototype's).
 */
function item(
  field: string,
  fieldId: string,
  from: { id: string | null; text: string | null },
  to: { id: string | null; text: string | null },
): ChangeItem {
  return {
    field,
    fieldtype: "jira",
    fieldId,
    from: from.id,
    fromString: from.text,
    to: to.id,
    toString: to.text,
  };
}
