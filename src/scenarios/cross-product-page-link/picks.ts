/**
 * Picks and distractors of cross-product-page-link: the issue to document and the parent page (with
 * look-alikes at level 2), and the level-2 twins: the issue's summary in another project and the
 * parent's title in another space.
 */
import { insertPage } from "../../sandbox/confluence/store.ts";
import { storageParagraphs } from "../../sandbox/fixtures/text.ts";
import type { Issue } from "../../sandbox/jira/model.ts";
import { insertIssue, projectIssueTypes } from "../../sandbox/jira/store.ts";
import type { Random } from "../../sandbox/random.ts";
import type { Site } from "../../sandbox/site.ts";

const prefix = (s: string) => s.split(" ").slice(0, 2).join(" ");

/** Level 1: any top-level issue; level 2: one whose summary has a look-alike in its project. */
export function pickIssue(site: Site, random: Random, level: number): Issue {
  const issues = [...site.values("issues")].filter((i) => i.parentId === null);
  if (level === 1) return random.pick(issues);
  return random.pick(
    issues.filter((i) =>
      issues.some((o) => o !== i && o.projectId === i.projectId && prefix(o.summary) === prefix(i.summary)),
    ),
  );
}

/** Significant words of a title, for look-alikes ("Runbooks" ~ "Deploy Runbook"). */
const words = (title: string) =>
  title
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/s$/, ""))
    .filter((w) => w.length >= 4);

/** Level 1: any page below a space homepage; level 2: one sharing a word with another page of its space. */
export function pickParent(site: Site, random: Random, level: number) {
  const homes = new Set([...site.values("spaces")].map((s) => s.homepageId));
  const pages = [...site.values("pages")].filter((p) => p.status === "current" && !homes.has(p.id));
  if (level === 1) return random.pick(pages);
  return random.pick(
    pages.filter((p) =>
      pages.some(
        (o) => o !== p && o.spaceId === p.spaceId && words(o.title).some((w) => words(p.title).includes(w)),
      ),
    ),
  );
}

/** Level 2 distractor: an issue with the same summary in another project. */
export function addTwinIssue(site: Site, random: Random, issue: Issue): void {
  const project = random.pick([...site.values("projects")].filter((p) => p.id !== issue.projectId));
  const type = projectIssueTypes(site, project.id).find((t) => t.name === "Task")!;
  const { id: _id, key: _key, projectId: _projectId, ...fields } = issue;
  insertIssue(site, project, { ...fields, issueTypeId: type.id });
}

/** Level 2 distractor: a page with the parent's title under the homepage of another space. */
export function addTwinPage(site: Site, random: Random, title: string, spaceId: string): void {
  const taken = (id: string) =>
    [...site.values("pages")].some((p) => p.spaceId === id && p.title.toLowerCase() === title.toLowerCase());
  const space = random.pick([...site.values("spaces")].filter((s) => s.id !== spaceId && !taken(s.id)));
  const home = site.get("pages", space.homepageId)!;
  const { id: _id, position: _position, ...fields } = home;
  const body = { representation: "storage" as const, value: storageParagraphs([`${title}.`]) };
  insertPage(site, { ...fields, parentId: home.id, title, body });
}
