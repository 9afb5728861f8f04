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

/** A user as the user endpoints return it (User). */
export function presentUser(base: string, user: JiraUser): Json {
  return { ...presentUserDetails(base, user), locale: "en_US" };
}

/** A user embedded in another record (UserDetails: assignee, reporter, comment author). */
export function presentUserDetails(base: string, user: JiraUser): Json {
  return {
    self: `${base}/rest/api/3/user?accountId=${user.accountId}`,
    accountId: user.accountId,
    accountType: user.accountType,
    emailAddress: user.emailAddress,
    avatarUrls: avatarUrls(base, "user", user.accountId),
    displayName: user.displayName,
    active: user.active,
    timeZone: user.timeZone,
  };
}

export function presentUserById(site: Site, base: string, accountId: string | null): Json | null {
  const user = accountId ? findUser(site, accountId) : undefined;
  return user ? presentUserDetails(base, user) : null;
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
    updateAuthor:
      comment.updateAuthorId === undefined ? author : presentUserById(site, base, comment.updateAuthorId),
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

type FieldPresenter = (site: Site, base: string, issue: Issue) => unknown;

/** How each field of an issue is presented in its v3 shape, keyed by field id. */
const FIELD_PRESENTERS: Record<string, FieldPresenter> = {
  summary: (_s, _b, issue) => issue.summary,
  description: (_s, _b, issue) => issue.description,
  environment: (_s, _b, issue) => issue.environment,
  issuetype: (site, base, issue) => presentIssueType(base, site.get("issueTypes", issue.issueTypeId)!),
  project: (site, base, issue) => presentProjectRef(base, site.get("projects", issue.projectId)!),
  status: (_s, base, issue) => presentStatus(base, statusById(issue.statusId)!),
  priority: (_s, base, issue) => presentPriority(base, issue.priorityId),
  assignee: (site, base, issue) => presentUserById(site, base, issue.assigneeId),
  reporter: (site, base, issue) => presentUserById(site, base, issue.reporterId),
  creator: (site, base, issue) => presentUserById(site, base, issue.creatorId),
  created: (_s, _b, issue) => jiraTime(issue.created),
  updated: (_s, _b, issue) => jiraTime(issue.updated),
  statuscategorychangedate: (_s, _b, issue) => jiraTime(issue.statusCategoryChangeDate),
  resolution: (_s, base, issue) => presentResolution(base, issue.resolutionId),
  resolutiondate: (_s, _b, issue) => (issue.resolutionDate === null ? null : jiraTime(issue.resolutionDate)),
  labels: (_s, _b, issue) => issue.labels,
  duedate: (_s, _b, issue) => issue.duedate,
  subtasks: (site, base, issue) => subtasksOf(site, issue.id).map((s) => presentIssueRef(site, base, s)),
  issuelinks: (site, base, issue) => presentIssueLinks(site, base, issue),
  comment: (site, base, issue) => {
    const comments = [...site.values("comments")]
      .filter((c) => c.issueId === issue.id)
      .map((c) => presentComment(site, base, c));
    const self = `${base}/rest/api/3/issue/${issue.id}/comment`;
    return { comments, self, maxResults: comments.length, total: comments.length, startAt: 0 };
  },
  components: () => [],
  fixVersions: () => [],
  versions: () => [],
  attachment: () => [],
  watches: (_s, base, issue) => ({
    self: `${base}/rest/api/3/issue/${issue.key}/watchers`,
    watchCount: 1,
    isWatching: false,
  }),
  parent: (site, base, issue) => {
    const parent = issue.parentId ? site.get("issues", issue.parentId) : undefined;
    return parent ? presentIssueRef(site, base, parent) : undefined;
  },
};

/** Every field id the site models, in presentation order. */
export const ISSUE_FIELD_IDS: readonly string[] = Object.keys(FIELD_PRESENTERS);

/** The given fields of an issue (default: all), presenting only what is asked for. */
export function presentIssueFields(
  site: Site,
  base: string,
  issue: Issue,
  ids: readonly string[] = ISSUE_FIELD_IDS,
): Json {
  const fields: Json = {};
  for (const id of ids) {
    const present = FIELD_PRESENTERS[id];
    const value = present?.(site, base, issue);
    if (value !== undefined) fields[id] = value;
  }
  return fields;
}
