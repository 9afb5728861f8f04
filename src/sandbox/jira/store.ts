/**
 * Jira record lookups and inserts shared by operations and fixtures: id and key allocation, finding an
 * issue by id or key (case-insensitively, as Jira does), and the issue's relatives.
 */
import type { Site } from "../site.ts";
import type { Issue, IssueType, JiraUser, Project } from "./model.ts";

/** Inserts an issue, allocating its numeric id and its per-project key. */
export function insertIssue(
  site: Site,
  project: Project,
  fields: Omit<Issue, "id" | "key" | "projectId">,
): Issue {
  const id = String(site.nextId("issue", 10000));
  const key = `${project.key}-${site.nextId(`issue:${project.key}`, 1)}`;
  const issue: Issue = { id, key, projectId: project.id, ...fields };
  site.put("issues", id, issue);
  site.put("issueKeys", key.toUpperCase(), id);
  return issue;
}

/** Finds an issue by numeric id or by key, ignoring case in the key. */
export function findIssue(site: Site, idOrKey: string): Issue | undefined {
  const byId = /^\d+$/.test(idOrKey) ? site.get("issues", idOrKey) : undefined;
  if (byId) return byId;
  const id = site.get("issueKeys", idOrKey.toUpperCase());
  return id === undefined ? undefined : site.get("issues", id);
}

/** Finds a project by id or key (keys are case-sensitive in Jira's project endpoints). */
export function findProject(site: Site, idOrKey: string): Project | undefined {
  for (const project of site.values("projects")) {
    if (project.id === idOrKey || project.key === idOrKey) return project;
  }
  return undefined;
}

export function projectIssueTypes(site: Site, projectId: string): IssueType[] {
  return [...site.values("issueTypes")].filter((t) => t.projectId === projectId);
}

export function subtasksOf(site: Site, issueId: string): Issue[] {
  return [...site.values("issues")].filter((i) => i.parentId === issueId);
}

export function findUser(site: Site, accountId: string): JiraUser | undefined {
  return site.get("users", accountId);
}
