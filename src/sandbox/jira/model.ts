/**
 * Jira records as the site stores them: compact, host-independent, JSON-serialisable. Presenters turn
 * them into the REST shapes (with `self` links) at the edge.
 */
import type { AdfDocument } from "../adf/types.ts";

export interface JiraUser {
  accountId: string;
  displayName: string;
  emailAddress: string;
  active: boolean;
  timeZone: string;
  accountType: "atlassian" | "app";
}

export interface IssueType {
  id: string;
  projectId: string;
  name: string;
  description: string;
  subtask: boolean;
  hierarchyLevel: number;
}

export interface Project {
  id: string;
  key: string;
  name: string;
  description: string;
  leadAccountId: string;
}

export interface Issue {
  id: string;
  key: string;
  projectId: string;
  issueTypeId: string;
  summary: string;
  description: AdfDocument | null;
  environment: AdfDocument | null;
  statusId: string;
  resolutionId: string | null;
  resolutionDate: number | null;
  priorityId: string;
  assigneeId: string | null;
  reporterId: string;
  creatorId: string;
  labels: string[];
  parentId: string | null;
  duedate: string | null;
  created: number;
  updated: number;
  statusCategoryChangeDate: number;
}

export interface Comment {
  id: string;
  issueId: string;
  authorId: string;
  /** Who last edited the comment (updateComment) when that was not its author; absent otherwise. */
  updateAuthorId?: string;
  body: AdfDocument;
  created: number;
  updated: number;
}

/** One changed field of a history entry (Jira's ChangeDetails); absent values are left out. */
export interface ChangeItem {
  field: string;
  fieldtype: "jira";
  fieldId: string;
  /** Ids and shown texts; null where the field had (or has) none, as Jira writes them. */
  from: string | null;
  fromString: string | null;
  to: string | null;
  toString: string | null;
}

/** One entry of an issue's history (Jira's Changelog): who changed which fields, when. */
export interface IssueChange {
  id: string;
  authorId: string;
  created: number;
  items: ChangeItem[];
}

/**
 * An issue's whole history, oldest first: one record per issue, so a write copies the history of one
 * issue and the table of issues with any, never every entry of the site.
 */
export interface IssueHistory {
  issueId: string;
  changes: IssueChange[];
}

export interface IssueLink {
  id: string;
  typeId: string;
  inwardIssueId: string;
  outwardIssueId: string;
}

export interface RemoteLinkObject {
  url: string;
  title: string;
  summary?: string;
  icon?: { url16x16?: string; title?: string; link?: string };
  status?: { resolved?: boolean; icon?: { url16x16?: string; title?: string; link?: string } };
}

export interface RemoteLink {
  id: number;
  issueId: string;
  globalId: string | null;
  application: { type?: string; name?: string } | null;
  relationship: string | null;
  object: RemoteLinkObject;
}
