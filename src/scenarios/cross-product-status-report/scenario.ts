/**
 * cross-product-status-report-v1: write a Confluence page whose body is a table of the Jira issues a
 * filter selects: a header row Key | Summary | Status | Assignee, then one row per issue sorted by key
 * (assignee by display name, "Unassigned" when none). Level 1 gives the JQL, the space by key and the
 * parent page by title. Level 2 describes the filter in words (a project's not-done issues assigned to a
 * person; namesakes such as Alex Chen / Alexa Chen exist), names the space by name, and the parent's
 * title has a twin in another space. Level 3 hops page → owner → account → issues: the report covers
 * the not-done issues (every project) assigned to the owner of a named page and goes under that page;
 * the page's twin in another space has another owner. In a quarter of level-3 tasks (mustDecline) the
 * prompt names a third space, which has no page of that title: the task must be declined without any write.
 *
 * Expectation: one page created in the space under the parent, titled as asked, whose body holds
 * exactly one table equal to the expected rows (visible text per cell); its status must be the API's
 * default (published). Validation: a read of the
 * space or the parent page. Points: fields 0.7, validate 0.15, verify 0.15. Budget: the reference's
 * calls + 4. Introduced names: the page title ("<project key> sprint <n> status"; eval sprints 41–54,
 * train 1–40).
 */
import type { Expectation } from "../../reward/expectation.ts";
import { AGENT_ACCOUNT_ID } from "../../sandbox/fixtures/default-site.ts";
import { statusById } from "../../sandbox/jira/catalog.ts";
import { searchIssues } from "../../sandbox/jira/jql/query.ts";
import type { Issue } from "../../sandbox/jira/model.ts";
import type { Site } from "../../sandbox/site.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { workPoints } from "../expectation-parts.ts";
import { paraphrase } from "../prompts.ts";
import { addTwinPage, contentPages, DECLINE_CLAUSE, mustDecline, spaceOf } from "../site-picks.ts";
import { aliasSolutions } from "./alias-solutions.ts";
import { pickFilter } from "./filters.ts";
import { HEADER, reportTable } from "./report-table.ts";

export interface StatusReportExpected {
  spaceId: string;
  spaceKey: string;
  spaceName: string;
  /** The page the report goes under; null when the task must be declined. */
  parentId: string | null;
  parentTitle: string;
  via: "key" | "name" | "owner";
  title: string;
  /** The JQL that selects the issues (given verbatim at level 1). */
  jql: string;
  /** Level 1–2: the project; level 2: the person the filter names. */
  projectKey?: string;
  assignee?: string;
  rows: string[][];
  refuse?: string;
}

const FORMAT =
  'The body is a single table with the header row "Key", "Summary", "Status", "Assignee" and one row per issue, sorted by issue key; write "Unassigned" when an issue has no assignee.';
const PROMPTS = [
  `Create a Confluence page "{title}" {where} that reports {issues}. ${FORMAT}`,
  `Please write a status page titled "{title}" {where}, listing {issues}. ${FORMAT}`,
  `I need a report of {issues} on Confluence: a new page "{title}" {where}. ${FORMAT}`,
  `Put together a page called "{title}" {where} with a table of {issues}. ${FORMAT}`,
];

export default defineScenario<StatusReportExpected>({
  id: "cross-product-status-report-v1",
  description:
    "Write a Confluence page with a table (key, summary, status, assignee) of the Jira issues a filter selects.",
  tools: [
    "jira_search_issues",
    "jira_find_users",
    "confluence_get_spaces",
    "confluence_get_pages",
    "confluence_get_page",
    "confluence_create_page",
  ],
  lookups: [["searchAndReconsileIssuesUsingJqlPost"], ["findUsers"]],
  levels: [1, 2, 3],
  generate({ site, random, level, split }) {
    const sprint = split === "eval" ? random.int(41, 54) : random.int(1, 40);
    const filter = pickFilter(site, random, level);
    const title = `${filter.tag} sprint ${sprint} status`;
    const parent = level === 3 ? filter.page! : random.pick(contentPages(site));
    const space = spaceOf(site, parent);
    const e: StatusReportExpected = {
      spaceId: space.id,
      spaceKey: space.key,
      spaceName: space.name,
      parentId: parent.id,
      parentTitle: parent.title,
      via: level === 1 ? "key" : level === 2 ? "name" : "owner",
      title,
      jql: filter.jql,
      rows: tableRows(site, filter.jql),
    };
    if (filter.projectKey) e.projectKey = filter.projectKey;
    if (filter.assignee) e.assignee = filter.assignee;
    let where = `in the ${space.key} space under "${parent.title}"`;
    let issues = `the issues matching the JQL \`${filter.jql}\``;
    if (level === 2) {
      addTwinPage(site, random, parent);
      where = `in the "${space.name}" space under "${parent.title}"`;
      issues = filter.description!;
    }
    if (level === 3) {
      const twin = addTwinPage(site, random, parent);
      const others = [...site.values("users")].filter((u) => u.active && u.accountId !== parent.ownerId);
      site.put("pages", twin.id, { ...twin, ownerId: random.pick(others).accountId });
      const elsewhere = [...site.values("spaces")].filter((s) => s.id !== space.id && s.id !== twin.spaceId);
      const named = mustDecline(site) ? random.pick(elsewhere) : space;
      where = `under the page "${parent.title}" in the "${named.name}" space`;
      issues = "the not-done issues (in any project) assigned to the owner of the page it goes under";
      if (named !== space) {
        Object.assign(e, { spaceId: named.id, spaceKey: named.key, spaceName: named.name, parentId: null });
        e.refuse = `There is no page "${parent.title}" in the "${named.name}" space.`;
      }
    }
    const prompt = paraphrase(random.derive("prompt"), PROMPTS, { title, where, issues });
    return { prompt: level === 3 ? prompt + DECLINE_CLAUSE : prompt, expected: e };
  },
  introduces: (e) => [e.title],
  expect({ expected: e }): Expectation {
    const points = workPoints();
    const budget = (e.via === "name" ? 6 : 5) + 4;
    const space = { table: "spaces" as const, id: e.spaceId };
    if (e.parentId === null)
      return {
        entities: [],
        validate: [space],
        refuse: e.refuse,
        refuseNames: [e.parentTitle],
        budget,
        points,
      };
    return {
      entities: [
        {
          kind: "create",
          ref: `"${e.title}"`,
          label: `"${e.title}" is created under "${e.parentTitle}" with a table of the ${e.rows.length} issues`,
          table: "pages",
          fields: {
            spaceId: { equals: e.spaceId },
            parentId: { equals: e.parentId },
            title: { equals: e.title },
            // "The body is a single table": nothing before or after it.
            body: { blocks: { blocks: [{ table: { header: HEADER, rows: e.rows } }] } },
          },
        },
      ],
      validate: [space, { table: "pages", id: e.parentId }],
      budget,
      points,
    };
  },
  *reference({ expected: e }) {
    const spaces = yield call("confluence_get_spaces", e.via === "key" ? { keys: [e.spaceKey] } : {});
    const spaceId = (spaces.body as { results: { id: string; key: string; name: string }[] }).results.find(
      (s) => (e.via === "key" ? s.key === e.spaceKey : s.name === e.spaceName),
    )!.id;
    const pages = yield call("confluence_get_pages", { "space-id": [spaceId], title: e.parentTitle });
    const parent = (pages.body as { results: { id: string; ownerId: string }[] }).results[0];
    if (!parent)
      return `I did not change anything: there is no page "${e.parentTitle}" in the "${e.spaceName}" space.`;
    let jql = e.jql;
    if (e.via === "name") {
      const users = yield call("jira_find_users", { query: e.assignee });
      const user = (users.body as { accountId: string; displayName: string }[]).find(
        (u) => u.displayName === e.assignee,
      )!;
      jql = `project = ${e.projectKey} AND assignee = "${user.accountId}" AND statusCategory != Done ORDER BY key ASC`;
    }
    if (e.via === "owner") jql = `assignee = "${parent.ownerId}" AND statusCategory != Done ORDER BY key ASC`;
    const found = yield call("jira_search_issues", {
      jql,
      fields: ["summary", "status", "assignee"],
      maxResults: 100,
    });
    const value = reportTable(found.body);
    const created = yield call("confluence_create_page", {
      spaceId,
      parentId: parent.id,
      status: "current",
      title: e.title,
      body: { representation: "storage", value },
    });
    yield call("confluence_get_page", { id: (created.body as { id: string }).id, "body-format": "storage" });
    const count = (found.body as { issues: unknown[] }).issues.length;
    return `Created "${e.title}" with ${count} issues.`;
  },
  aliasSolutions,
});

/** The expected table rows: the issues the JQL selects, sorted by key, one row each. */
function tableRows(site: Site, jql: string): string[][] {
  return searchIssues(site, jql, AGENT_ACCOUNT_ID).map((i: Issue) => [
    i.key,
    i.summary,
    statusById(i.statusId)!.name,
    i.assigneeId ? site.get("users", i.assigneeId)!.displayName : "Unassigned",
  ]);
}
