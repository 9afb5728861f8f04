/**
 * getIssue's `renderedFields` expansion: the issue's returned fields as Jira renders them for display.
 * Rich text (description, environment, each comment's body) becomes HTML, dates become Jira's
 * `dd/MMM/yy h:mm AM` (a due date `dd/MMM/yy`), and a field with nothing to render is null, as Jira
 * answers it for summaries, statuses, people and the like.
 */
import { adfToHtml } from "../adf/adf-to-storage.ts";
import { jiraRenderedDate, jiraRenderedTime } from "../clock.ts";
import type { Site } from "../site.ts";
import type { Issue } from "./model.ts";

type Renderer = (site: Site, issue: Issue, presented: unknown) => unknown;

const time = (ms: number | null) => (ms === null ? null : jiraRenderedTime(ms));

const RENDERERS: Record<string, Renderer> = {
  description: (_, issue) => (issue.description === null ? null : adfToHtml(issue.description)),
  environment: (_, issue) => (issue.environment === null ? null : adfToHtml(issue.environment)),
  created: (_, issue) => time(issue.created),
  updated: (_, issue) => time(issue.updated),
  resolutiondate: (_, issue) => time(issue.resolutionDate),
  statuscategorychangedate: (_, issue) => time(issue.statusCategoryChangeDate),
  duedate: (_, issue) =>
    issue.duedate === null ? null : jiraRenderedDate(Date.parse(`${issue.duedate}T00:00:00Z`)),
  comment: (site, _issue, presented) => {
    const page = presented as { comments: { id: string; created: string; updated: string }[] };
    return {
      ...page,
      comments: page.comments.map((bean) => {
        const stored = site.get("comments", bean.id)!;
        return {
          ...bean,
          body: adfToHtml(stored.body),
          created: jiraRenderedTime(stored.created),
          updated: jiraRenderedTime(stored.updated),
        };
      }),
    };
  },
};

/** The rendered form of each of `fields` (the IssueBean's presented fields, keyed by field id). */
export function renderedFields(
  site: Site,
  issue: Issue,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  const rendered: Record<string, unknown> = {};
  for (const [id, presented] of Object.entries(fields))
    rendered[id] = RENDERERS[id]?.(site, issue, presented) ?? null;
  return rendered;
}
