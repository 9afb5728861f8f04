/**
 * Generator helpers shared by the Jira task families: how a prompt names an issue (by key, by summary and
 * project, or by who it is assigned to), which issues have look-alikes, which people have namesakes, and
 * names that exist nowhere on the site (for tasks that must be refused). Pure reads of the task's site.
 */
import { AGENT_ACCOUNT_ID } from "../sandbox/fixtures/default-site.ts";
import type { Issue, JiraUser, Project } from "../sandbox/jira/model.ts";
import type { Random } from "../sandbox/random.ts";
import type { Site } from "../sandbox/site.ts";
import type { Split } from "./define-scenario.ts";

/** Namesake pairs of the fixture's people pool ("Alex Chen" / "Alexa Chen", ...). */
export const NAMESAKES = [
  "Alex Chen",
  "Alexa Chen",
  "Sam Rivera",
  "Samantha Rivera",
  "Jordan Lee",
  "Jordan Leigh",
] as const;

/** The namesake pairs, [["Alex Chen", "Alexa Chen"], ...]. */
export const NAMESAKE_PAIRS: readonly (readonly [string, string])[] = [0, 2, 4].map(
  (i) => [NAMESAKES[i]!, NAMESAKES[i + 1]!] as const,
);

/**
 * People who are not on the site, each close to someone who is: a task naming one of them cannot be done
 * (the careless agent picks the near match). Disjoint between splits.
 */
const ABSENT_PEOPLE: Record<Split, readonly string[]> = {
  eval: ["Alexandra Chen", "Jordan Leary", "Samuel Rivera", "Priya Natarajan-Iyer"],
  train: [
    "Alexis Chen",
    "Jordan Lane",
    "Sammy Rivera",
    "Marcus Okafor-Bell",
    "Mei Tanaka-Ross",
    "Lukas Beck",
  ],
};

export const absentPeople = (split: Split): readonly string[] => ABSENT_PEOPLE[split];

/** Active people other than the agent (optionally only namesakes, or never `exclude`). */
export function people(site: Site, options: { namesakes?: boolean; exclude?: string[] } = {}): JiraUser[] {
  return [...site.values("users")].filter(
    (u) =>
      u.active &&
      u.accountId !== AGENT_ACCOUNT_ID &&
      !(options.exclude ?? []).includes(u.accountId) &&
      (!options.namesakes || (NAMESAKES as readonly string[]).includes(u.displayName)),
  );
}

/** Top-level issues (no sub-tasks), in id order. */
export const topLevelIssues = (site: Site): Issue[] =>
  [...site.values("issues")].filter((i) => i.parentId === null);

const prefix = (summary: string) => summary.split(" ").slice(0, 3).join(" ");

/** Top-level issues whose summary starts like another one in the same project. */
export function lookalikeIssues(site: Site): Issue[] {
  const issues = topLevelIssues(site);
  return issues.filter((i) =>
    issues.some((o) => o !== i && o.projectId === i.projectId && prefix(o.summary) === prefix(i.summary)),
  );
}

/**
 * Top-level issues that are the only issue of their project assigned to their assignee, so "the
 * <project> issue assigned to <person>" names exactly one issue (a two-hop lookup: person → account → issue).
 */
export function soleAssignedIssues(site: Site): Issue[] {
  const all = [...site.values("issues")];
  return topLevelIssues(site).filter(
    (i) =>
      i.assigneeId !== null &&
      all.filter((o) => o.projectId === i.projectId && o.assigneeId === i.assigneeId).length === 1,
  );
}

export const projectOf = (site: Site, issue: Issue): Project => site.get("projects", issue.projectId)!;
export const userName = (site: Site, accountId: string): string => site.get("users", accountId)!.displayName;

/** How a prompt names an issue. */
export type IssueRefKind = "key" | "summary" | "assignee";

/** What a reference knows about the issue a prompt names (see describeIssue and issueKeyOf). */
export interface IssueClue {
  kind: IssueRefKind;
  key: string;
  projectKey: string;
  summary: string;
  /** Display name of the assignee (kind "assignee"). */
  assigneeName: string | null;
}

/** The clue to `issue` for a prompt that names it by `kind`. */
export const issueClue = (site: Site, issue: Issue, kind: IssueRefKind): IssueClue => ({
  kind,
  key: issue.key,
  projectKey: projectOf(site, issue).key,
  summary: issue.summary,
  assigneeName: issue.assigneeId ? userName(site, issue.assigneeId) : null,
});

/** Lookup calls a reference makes to find an issue named by `kind` (none, a search, or a person then a search). */
export const lookupCalls = (kind: IssueRefKind): number => (kind === "key" ? 0 : kind === "summary" ? 1 : 2);

/**
 * How a level-1 or level-2 prompt names its issue, for families that mix the two at level 1: level 2 by
 * summary (it has a look-alike); level 1 by key, or by summary three times in ten (draws only at level 1).
 */
export const keyOrSummary = (level: number, random: Random): IssueRefKind =>
  level === 2 || random.next() < 0.3 ? "summary" : "key";

/** The issues a level draws from: any top-level one, one with a look-alike, one its assignee solely holds. */
export const issuesForLevel = (site: Site, level: number): Issue[] =>
  level === 1 ? topLevelIssues(site) : level === 2 ? lookalikeIssues(site) : soleAssignedIssues(site);

export function describeIssue(site: Site, issue: Issue, kind: IssueRefKind): string {
  const project = projectOf(site, issue);
  if (kind === "key") return issue.key;
  if (kind === "summary") return `the issue "${issue.summary}" in the ${project.name} project`;
  return `the ${project.name} issue currently assigned to ${userName(site, issue.assigneeId!)}`;
}

/** JQL string literal. */
export const jqlString = (text: string) => `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

/**
 * A variant by task index, so each level's tasks cycle through `variants`: eval levels hold consecutive
 * indices, train levels every third index (see levelFor).
 */
export function variantFor<T>(split: Split, index: number, variants: readonly T[]): T {
  return variants[(split === "eval" ? index : Math.floor(index / 3)) % variants.length]!;
}

/** Whether a task refuses: one level-3 task in three (the others of level 3 and all below do the work). */
export const refusesAtLevel3 = (level: number, split: Split, index: number): boolean =>
  level === 3 && variantFor(split, index, [false, false, true]);
