/**
 * Jira presenters: turn stored records into the REST v3 shapes (IssueBean, User, StatusDetails, ...)
 * with absolute `self` links built from the request's base URL.
 */
import { jiraTime } from "../clock.ts";
import type { Site } from "../site.ts";
import {
  categoryById,
  ISSUE_LINK_TYPES,
  priorityById,
  resolutionById,
  type Status,
  statusById,
} from "./catalog.ts";
import type { Comment, Issue, IssueType, JiraUser, Project } from "./model.ts";
import { findUser, subtasksOf } from "./store.ts";

type Json = Record<string, unknown>;

const avatarUrls = (base: string, kind: string, id: string) => ({
  "48x48": `${base}/secure/${kind}avatar?size=large&id=${id}`,
  "24x24": `${base}/secure/${kind}avatar?size=small&id=${id}`,
  "16x16": `${base}/secure/${kind}avatar?size=xsmall&id=${id}`,
  "32x32": `${base}/secure/${kind}avatar?size=medium&id=${id}`,
});

export function presentUser(base: string, user: JiraUser): Json {
  return {
    self: `${base}/rest/api/3/user?accountId=${user.accountId}`,
    accountId: user.accountId,
    accountType: user.accountType,
    emailAddress: user.emailAddress,
    avatarUrls: avatarUrls(base, "user", user.accountId),
    displayName: user.displayName,
    active: user.active,
    timeZone: user.timeZone,
    locale: "en_US",
  };
}

export function presentUserById(site: Site, base: string, accountId: string | null): Json | null {
  const user = accountId ? findUser(site, accountId) : undefined;
  return user ? presentUser(base, user) : null;
}

export function presentStatusCategory(base: string, id: number): Json {
  const c = categoryById(id);
  return {
    self: `${base}/rest/api/3/statuscategory/${c.id}`,
    id: c.id,
    key: c.key,
    colorName: c.colorName,
    name: c.name,
  };
}

export function presentStatus(base: string, status: Status): Json {
  return {
    self: `${base}/rest/api/3/status/${status.id}`,
    description: status.description,
    iconUrl: `${base}/images/icons/statuses/generic.png`,
    name: status.name,
    id: status.id,
    statusCategory: presentStatusCategory(base, status.categoryId),
  };
}

export function presentIssueType(base: string, type: IssueType): Json {
  return {
    self: `${base}/rest/api/3/issuetype/${type.id}`,
    id: type.id,
    description: type.description,
    iconUrl: `${base}/rest/api/2/universal_avatar/view/type/issuetype/avatar/${type.id}?size=medium`,
    name: type.name,
    subtask: type.subtask,
    avatarId: 10300 + type.hierarchyLevel + 1,
    hierarchyLevel: type.hierarchyLevel,
  };
}

export function presentPriority(base: string, id: string): Json | null {
  const p = priorityById(id);
  return p
    ? {
        self: `${base}/rest/api/3/priority/${p.id}`,
        iconUrl: `${base}/images/icons/priorities/${p.name.toLowerCase()}.svg`,
        name: p.name,
        id: p.id,
      }
    : null;
}

export function presentResolution(base: string, id: string | null): Json | null {
  const r = id ? resolutionById(id) : undefined;
  return r
    ? { self: `${base}/rest/api/3/resolution/${r.id}`, id: r.id, description: r.description, name: r.name }
    : null;
}

export function presentProjectRef(base: string, project: Project): Json {
  return {
    self: `${base}/rest/api/3/project/${project.id}`,
    id: project.id,
    key: project.key,
    name: project.name,
    projectTypeKey: "software",
    simplified: false,
    avatarUrls: avatarUrls(base, "project", project.id),
  };
}

/** The short form of an issue used for parents, sub-tasks and linked issues. */
export function presentIssueRef(site: Site, base: string, issue: Issue): Json {
  return {
    id: issue.id,
    key: issue.key,
    self: `${base}/rest/api/3/issue/${issue.id}`,
    fields: {
      summary: issue.summary,
      status: presentStatus(base, statusById(issue.statusId)!),
      priority: presentPriority(base, issue.priorityId),
      issuetype: presentIssueType(base, site.get("issueTypes", issue.issueTypeId)!),
    },
  };
}

export function presentComment(site: Site, base: string, comment: Comment): Json {
  const issue = site.get("issues", comment.issueId)!;
  const author = presentUserById(site, base, comment.authorId);
  return {
    self: `${base}/rest/api/3/issue/${issue.id}/comment/${comment.id}`,
    id: comment.id,
    author,
    body: comment.body,
    updateAuthor: author,
    created: jiraTime(comment.created),
    updated: jiraTime(comment.updated),
    jsdPublic: true,
  };
}

export function presentIssueLinks(site: Site, base: string, issue: Issue): Json[] {
  const links: Json[] = [];
  for (const link of site.values("issueLinks")) {
    const otherId =
      link.inwardIssueId === issue.id
        ? link.outwardIssueId
        : link.outwardIssueId === issue.id
          ? link.inwardIssueId
          : null;
    if (otherId === null) continue;
    const type = ISSUE_LINK_TYPES.find((t) => t.id === link.typeId)!;
    const other = site.get("issues", otherId)!;
    const side = link.inwardIssueId === issue.id ? "outwardIssue" : "inwardIssue";
    links.push({
      id: link.id,
      self: `${base}/rest/api/3/issueLink/${link.id}`,
      type: { ...type, self: `${base}/rest/api/3/issueLinkType/${type.id}` },
      [side]: presentIssueRef(site, base, other),
    });
  }
  return links;
}

/** Every field of an issue in its v3 shape, keyed by field id. */
export function presentIssueFields(site: Site, base: string, issue: Issue): Json {
  const project = site.get("projects", issue.projectId)!;
  const comments = [...site.values("comments")]
    .filter((c) => c.issueId === issue.id)
    .map((c) => presentComment(site, base, c));
  const parent = issue.parentId ? site.get("issues", issue.parentId) : undefined;
  const fields: Json = {
    summary: issue.summary,
    description: issue.description,
    environment: issue.environment,
    issuetype: presentIssueType(base, site.get("issueTypes", issue.issueTypeId)!),
    project: presentProjectRef(base, project),
    status: presentStatus(base, statusById(issue.statusId)!),
    priority: presentPriority(base, issue.priorityId),
    assignee: presentUserById(site, base, issue.assigneeId),
    reporter: presentUserById(site, base, issue.reporterId),
    creator: presentUserById(site, base, issue.creatorId),
    created: jiraTime(issue.created),
    updated: jiraTime(issue.updated),
    statuscategorychangedate: jiraTime(issue.statusCategoryChangeDate),
    resolution: presentResolution(base, issue.resolutionId),
    resolutiondate: issue.resolutionDate === null ? null : jiraTime(issue.resolutionDate),
    labels: issue.labels,
    duedate: issue.duedate,
    subtasks: subtasksOf(site, issue.id).map((s) => presentIssueRef(site, base, s)),
    issuelinks: presentIssueLinks(site, base, issue),
    comment: {
      comments,
      self: `${base}/rest/api/3/issue/${issue.id}/comment`,
      maxResults: comments.length,
      total: comments.length,
      startAt: 0,
    },
    components: [],
    fixVersions: [],
    versions: [],
    attachment: [],
    watches: { self: `${base}/rest/api/3/issue/${issue.key}/watchers`, watchCount: 1, isWatching: false },
  };
  if (parent) fields.parent = presentIssueRef(site, base, parent);
  return fields;
}
