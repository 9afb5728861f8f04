/**
 * Name lookups that alias tools run on the site before calling an operation, as the MCP servers they
 * mimic do against a real site: a space key to its id, a page title to its id, a user's email or name to
 * an accountId, a transition name to its id. A failed lookup answers like the vendor would (a 404 for a
 * missing space or page, a Jira 400 for an unknown user) and changes nothing.
 */
import { confluenceError, jiraError } from "../../sandbox/api-error.ts";
import type { Page, Space } from "../../sandbox/confluence/model.ts";
import { statusById, transitionsFrom } from "../../sandbox/jira/catalog.ts";
import type { JiraUser } from "../../sandbox/jira/model.ts";
import { findIssue } from "../../sandbox/jira/store.ts";
import { userMatchesQuery } from "../../sandbox/jira/user-query.ts";
import type { Site } from "../../sandbox/site.ts";

/** The space with this key (exact, else ignoring case). */
export function spaceByKey(site: Site, key: string): Space {
  const spaces = [...site.values("spaces")];
  const space =
    spaces.find((s) => s.key === key) ?? spaces.find((s) => s.key.toLowerCase() === key.toLowerCase());
  if (!space) throw confluenceError(404, `Space not found: there is no space with key '${key}'.`);
  return space;
}

/** The current page with this exact title in the space with this key. */
export function pageByTitle(site: Site, spaceKey: string, title: string): Page {
  const space = spaceByKey(site, spaceKey);
  for (const page of site.values("pages"))
    if (page.spaceId === space.id && page.status === "current" && page.title === title) return page;
  throw confluenceError(404, `Page not found: no current page titled '${title}' in space ${space.key}.`);
}

/** A page id from an id or a page URL (`.../pages/123456/Title`); anything else is passed on as given. */
export function pageIdOf(ref: string): string {
  const fromUrl = /\/pages\/(\d+)/.exec(ref);
  return fromUrl ? fromUrl[1]! : ref.trim();
}

/**
 * The accountId for a user identifier: an accountId, an email address or a display name (ignoring
 * case), else the one active user a picker query matches.
 */
export function accountIdFor(site: Site, identifier: string): string {
  const users = [...site.values("users")];
  const wanted = identifier.trim();
  const lower = wanted.toLowerCase();
  const exact =
    users.find((u) => u.accountId === wanted) ??
    users.find((u) => u.emailAddress.toLowerCase() === lower) ??
    unique(
      users.filter((u) => u.displayName.toLowerCase() === lower),
      wanted,
    );
  if (exact) return exact.accountId;
  const matches = users.filter((u) => u.active && userMatchesQuery(u, wanted));
  const found = unique(matches, wanted);
  if (found) return found.accountId;
  throw jiraError(400, [
    `Could not find a user matching '${wanted}'; pass an accountId, an email address or a full display name.`,
  ]);
}

function unique(users: JiraUser[], wanted: string): JiraUser | undefined {
  if (users.length <= 1) return users[0];
  const names = users.map((u) => `${u.displayName} (${u.accountId})`).join(", ");
  throw jiraError(400, [`'${wanted}' matches several users: ${names}; pass an accountId.`]);
}

/**
 * A transition id from an id, a transition name, or the name of its target status, among those
 * available from the issue's current status (ignoring case). Anything else is passed on, and the
 * operation answers with Jira's own error.
 */
export function transitionIdFor(site: Site, issueIdOrKey: string, idOrName: string | number): string {
  const value = String(idOrName).trim();
  if (/^\d+$/.test(value)) return value;
  const issue = findIssue(site, issueIdOrKey);
  const available = issue ? transitionsFrom(issue.statusId) : [];
  const wanted = value.toLowerCase();
  const match =
    available.find((t) => t.name.toLowerCase() === wanted) ??
    available.find((t) => statusById(t.to)?.name.toLowerCase() === wanted);
  return match ? match.id : value;
}
