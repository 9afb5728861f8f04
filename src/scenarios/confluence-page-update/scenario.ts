/**
 * confluence-page-update-v1: append a section (a heading and a paragraph) to an existing page, keeping
 * its body, so that the page's version goes up by exactly one. Level 1 names the page by title and the
 * space by key. Level 2 names the space by its name, the page has been edited before (version 2–6, so
 * the agent must read the current number), a page with the same title sits in another space and a
 * "Copy of <title>" beside it. Level 3 names no page: the agent follows person → account → issue →
 * remote link → page ("the page linked from the In Progress issue assigned to Alex Chen in Mobile App";
 * namesakes such as Alexa Chen exist), the page has a twin in another space that another issue of the
 * same person links to; a quarter of level-3 tasks (mustDecline) describe an issue that links to no
 * page, and must be declined without any write.
 *
 * Expectation: the page's body has the visible text "<old text> <heading> <paragraph>" (any
 * representation; block structure free) and its version number is the old one + 1; nothing else
 * changes. Validation: a read of the page before the write. Points: fields 0.7, validate 0.15, verify
 * 0.15. Budget: the reference's calls + 4. Introduced names: the heading.
 */
import type { Expectation } from "../../reward/expectation.ts";
import type { Page } from "../../sandbox/confluence/model.ts";
import { escapeXml } from "../../sandbox/fixtures/text.ts";
import { IN_PROGRESS, statusById } from "../../sandbox/jira/catalog.ts";
import type { Issue } from "../../sandbox/jira/model.ts";
import type { Random } from "../../sandbox/random.ts";
import type { Site } from "../../sandbox/site.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { workPoints } from "../expectation-parts.ts";
import { capitalise, paraphrase } from "../prompts.ts";
import {
  addCopyPage,
  addTwinPage,
  contentPages,
  DECLINE_CLAUSE,
  linkIssueToPage,
  mustDecline,
  pageIdInUrl,
  spaceOf,
  visibleTextOf,
} from "../site-picks.ts";
import { aliasSolutions } from "./alias-solutions.ts";
import { sections } from "./pools.ts";

export interface PageUpdateExpected {
  /** The page to update; null when the task must be declined. */
  pageId: string | null;
  title: string;
  spaceKey: string;
  spaceName: string;
  /** How the prompt names the page: title + space key, title + space name, or via an issue (level 3). */
  via: "key" | "name" | "issue";
  /** Level 3: the issue (not named in the prompt), its project, status and assignee as the prompt gives them. */
  issueKey?: string;
  issueId?: string;
  projectName?: string;
  statusName?: string;
  assignee?: string;
  heading: string;
  paragraph: string;
  /** Why the task cannot be done (level 3 only). */
  refuse?: string;
}

const SECTION = 'a heading "{heading}" followed by the paragraph "{paragraph}"';
const PROMPTS = [
  `Append a new section to {page}: ${SECTION}. Keep everything that is already on the page.`,
  `Please add ${SECTION} at the end of {page}, without changing its existing content.`,
  `{Page} needs one more section at the bottom: ${SECTION}. Leave the rest of the page as it is.`,
  `Update {page} by appending ${SECTION}. The existing text must stay unchanged.`,
  `Can you extend {page}? Add ${SECTION} after its current content, keeping that content intact.`,
];

export default defineScenario<PageUpdateExpected>({
  id: "confluence-page-update-v1",
  description:
    "Append a section to an existing Confluence page found by title (or through a Jira issue), keeping its body and incrementing its version.",
  tools: [
    "confluence_get_spaces",
    "confluence_get_pages",
    "confluence_get_page",
    "confluence_update_page",
    "jira_find_users",
    "jira_search_issues",
    "jira_get_remote_links",
  ],
  lookups: [["getRemoteIssueLinks"], ["findUsers"]],
  levels: [1, 2, 3],
  generate({ site, random, level, split }) {
    const [heading, paragraph] = random.pick(sections(split));
    const page = random.pick(contentPages(site));
    const space = spaceOf(site, page);
    const base = { title: page.title, spaceKey: space.key, spaceName: space.name, heading, paragraph };
    const values = { heading, paragraph, page: "", Page: "" };
    let expected: PageUpdateExpected;
    if (level === 1) {
      values.page = `the page "${page.title}" in the ${space.key} space`;
      expected = { ...base, pageId: page.id, via: "key" };
    } else {
      bumpVersion(site, page, random.int(2, 6));
      const twin = addTwinPage(site, random, page);
      if (level === 2) {
        addCopyPage(site, page);
        values.page = `the page "${page.title}" in the "${space.name}" space`;
        expected = { ...base, pageId: page.id, via: "name" };
      } else {
        const hop = linkThroughIssues(site, random, page, twin);
        values.page = `the Confluence page linked from the ${hop.statusName} issue assigned to ${hop.assignee} in the ${hop.projectName} project`;
        const { linked, ...named } = hop;
        expected = { ...base, ...named, pageId: linked ? page.id : null, via: "issue" };
        if (!linked) expected.refuse = `${hop.issueKey} links to no Confluence page.`;
      }
    }
    values.Page = capitalise(values.page);
    const prompt = paraphrase(random.derive("prompt"), PROMPTS, values);
    return { prompt: level === 3 ? prompt + DECLINE_CLAUSE : prompt, expected };
  },
  introduces: (e) => [e.heading],
  expect({ expected: e }, site): Expectation {
    const points = workPoints();
    const budget = (e.via === "issue" ? 6 : 5) + 4;
    const issue = e.issueId ? [{ table: "issues" as const, id: e.issueId }] : [];
    // The missing thing is the page the prompt describes ("the Confluence page linked from ...").
    if (e.pageId === null)
      return {
        entities: [],
        validate: issue,
        refuse: e.refuse,
        refuseNames: ["Confluence page"],
        budget,
        points,
      };
    const page = site.get("pages", e.pageId)!;
    // "a heading … followed by the paragraph …" after the kept body, and nothing else.
    const section = [{ heading: e.heading }, { paragraph: e.paragraph }];
    return {
      entities: [
        {
          kind: "update",
          ref: `"${e.title}"`,
          label: `"${e.title}" ends with the section "${e.heading}", its body kept, as version ${page.version.number + 1}`,
          table: "pages",
          id: e.pageId,
          fields: {
            body: { blocks: { before: visibleTextOf(page.body), blocks: section } },
            "version.number": { equals: page.version.number + 1 },
          },
        },
      ],
      validate: [{ table: "pages", id: e.pageId }, ...issue],
      budget,
      points,
    };
  },
  *reference({ expected: e }) {
    let pageId: string;
    if (e.via === "issue") {
      const users = yield call("jira_find_users", { query: e.assignee });
      const accountId = (users.body as { accountId: string; displayName: string }[]).find(
        (u) => u.displayName === e.assignee,
      )!.accountId;
      const jql = `project = "${e.projectName}" AND assignee = "${accountId}" AND status = "${e.statusName}"`;
      const found = yield call("jira_search_issues", { jql, fields: ["summary"] });
      const key = (found.body as { issues: { key: string }[] }).issues[0]!.key;
      const links = yield call("jira_get_remote_links", { issueIdOrKey: key });
      const urls = (links.body as { object: { url: string } }[]).map((l) => pageIdInUrl(l.object.url));
      const linked = urls.find((id) => id !== undefined);
      if (!linked)
        return `I did not change anything: ${key} links to no Confluence page, so there is no page to update.`;
      pageId = linked;
    } else {
      const spaces = yield call("confluence_get_spaces", e.via === "key" ? { keys: [e.spaceKey] } : {});
      const spaceId = (spaces.body as { results: { id: string; key: string; name: string }[] }).results.find(
        (s) => (e.via === "key" ? s.key === e.spaceKey : s.name === e.spaceName),
      )!.id;
      const pages = yield call("confluence_get_pages", { "space-id": [spaceId], title: e.title });
      pageId = (pages.body as { results: { id: string }[] }).results[0]!.id;
    }
    const read = yield call("confluence_get_page", { id: pageId, "body-format": "storage" });
    const page = read.body as {
      title: string;
      version: { number: number };
      body: { storage: { value: string } };
    };
    const section = `<h2>${escapeXml(e.heading)}</h2><p>${escapeXml(e.paragraph)}</p>`;
    yield call("confluence_update_page", {
      id: pageId,
      status: "current",
      title: page.title,
      body: { representation: "storage", value: `${page.body.storage.value}${section}` },
      version: { number: page.version.number + 1 },
    });
    yield call("confluence_get_page", { id: pageId, "body-format": "storage" });
    return `Appended the section "${e.heading}" to "${page.title}" (now version ${page.version.number + 1}).`;
  },
  aliasSolutions,
});

/** Marks the page as edited `number - 1` times before the task (same body, a later version). */
function bumpVersion(site: Site, page: Page, number: number): void {
  site.put("pages", page.id, { ...page, version: { ...page.version, number } });
}

/**
 * Level 3: an issue, unique in its project by (assignee, status), that links to the page (or, in a
 * quarter of the tasks, to nothing); another issue of the same assignee links to the page's twin.
 */
function linkThroughIssues(site: Site, random: Random, page: Page, twin: Page) {
  const issues = [...site.values("issues")];
  const unique = (i: Issue) =>
    i.assigneeId !== null &&
    !issues.some(
      (o) =>
        o !== i && o.projectId === i.projectId && o.assigneeId === i.assigneeId && o.statusId === i.statusId,
    );
  const inProgress = issues.filter((i) => unique(i) && i.statusId === IN_PROGRESS);
  const issue = random.pick(inProgress.length > 0 ? inProgress : issues.filter(unique));
  const linked = !mustDecline(site);
  if (linked) linkIssueToPage(site, issue, page);
  const other = issues.find((o) => o.assigneeId === issue.assigneeId && o !== issue);
  if (other) linkIssueToPage(site, other, twin);
  return {
    linked,
    issueKey: issue.key,
    issueId: issue.id,
    projectName: site.get("projects", issue.projectId)!.name,
    statusName: statusById(issue.statusId)!.name,
    assignee: site.get("users", issue.assigneeId!)!.displayName,
  };
}
