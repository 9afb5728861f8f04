/**
 * The issue filters of cross-product-status-report, by level: a project and a status (level 1, given as
 * JQL); a project and a person's not-done issues (level 2, described in words, preferring people with a
 * namesake); the not-done issues of a page's owner (level 3, with the page). Each selects 1+ issues.
 */
import type { Page } from "../../sandbox/confluence/model.ts";
import { DONE, statusById } from "../../sandbox/jira/catalog.ts";
import type { Issue } from "../../sandbox/jira/model.ts";
import type { Random } from "../../sandbox/random.ts";
import type { Site } from "../../sandbox/site.ts";
import { contentPages } from "../site-picks.ts";

export interface Filter {
  /** Prefix of the report title: a project or space key. */
  tag: string;
  jql: string;
  projectKey?: string;
  description?: string;
  assignee?: string;
  page?: Page;
}

const ORDER = "ORDER BY key ASC";

export function pickFilter(site: Site, random: Random, level: number): Filter {
  const issues = [...site.values("issues")];
  const open = (i: Issue) => i.statusId !== DONE;
  if (level === 3) {
    const owned = contentPages(site).filter((p) => issues.some((i) => open(i) && i.assigneeId === p.ownerId));
    const page = random.pick(owned);
    const space = site.get("spaces", page.spaceId)!;
    return { tag: space.key, jql: `assignee = "${page.ownerId}" AND statusCategory != Done ${ORDER}`, page };
  }
  const project = random.pick([...site.values("projects")]);
  const inProject = issues.filter((i) => i.projectId === project.id);
  if (level === 1) {
    const counts = (statusId: string) => inProject.filter((i) => i.statusId === statusId).length;
    const statusId = random.pick(
      [...new Set(inProject.map((i) => i.statusId))].filter((s) => counts(s) >= 2),
    );
    const jql = `project = ${project.key} AND status = "${statusById(statusId)!.name}" ${ORDER}`;
    return { tag: project.key, jql, projectKey: project.key };
  }
  const users = [...site.values("users")];
  const namesake = (name: string) =>
    users.some((u) => u.displayName !== name && u.displayName.split(" ")[1] === name.split(" ")[1]);
  const people = [...new Set(inProject.filter(open).map((i) => i.assigneeId))]
    .filter((id): id is string => id !== null)
    .map((id) => site.get("users", id)!);
  const preferred = people.filter((u) => namesake(u.displayName));
  const person = random.pick(preferred.length > 0 ? preferred : people);
  return {
    tag: project.key,
    projectKey: project.key,
    jql: `project = ${project.key} AND assignee = "${person.accountId}" AND statusCategory != Done ${ORDER}`,
    description: `the ${project.name} issues assigned to ${person.displayName} that are not done`,
    assignee: person.displayName,
  };
}
