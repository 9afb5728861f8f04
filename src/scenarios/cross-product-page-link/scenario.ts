/**
 * cross-product-page-link-v1: document a Jira issue on a new Confluence page, then link the page from
 * the issue. The page goes under a parent page (given by title) in a space; its title must be
 * "<issue key>: <issue summary>" and its body must mention the key and the summary. The link is a remote
 * issue link whose object.url is the page's web URL (`_links.base` + `_links.webui`) and whose
 * object.title is the page title. Level 1 names the issue by key and the space by key. Level 2 names the
 * issue by summary and project name (the summary has a look-alike in its project and an exact twin,
 * added by the generator, in another project), the space by name, and a parent page whose title has a
 * look-alike in the space and an exact twin (added by the generator) in another space.
 *
 * The expected URL is only known once the page exists. We predict its page id: the next value of the
 * initial site's page counter. This is sound for the state verdict: a passing trace creates exactly one
 * page (any other page is collateral), and a rejected createPage allocates no id (writes are
 * transactional), so that one page always gets the predicted id. A trace that creates a wrong page first
 * fails anyway (an extra page) and may also lose the URL points for linking its second page. Accepted
 * URL forms (page-urls.ts): `/wiki/spaces/<KEY>/pages/<id>` with the API's title slug, a raw-dash slug or
 * none, `/wiki/x/<tiny id>` and `/wiki/pages/viewpage.action?pageId=<id>`, on the canonical base URL tool
 * outputs carry or on the session's REST address (`restBaseUrl`, what REST clients under `/s/<id>` see).
 *
 * Expectation (both levels): one page created (space, parent, exact title, a body whose visible text
 * mentions the key and the summary verbatim: the prompt asks for a mention, not a text) and one remote
 * link on the issue with the page's URL and exact title; fields 0.7 (page 0.35, link 0.35). Every other
 * field as the API sets it. Validate 0.15: a read of the issue, the space or the parent before the
 * first write (a search counts only when its result holds one); verify 0.15. Budget: the reference's 6
 * calls + 3. The issue's `updated` stamp is bookkeeping.
 *
 * As a workflow step it documents an issue an earlier step creates (`ctx.bound`, named by the key its
 * reference reads back; its title and URL then name that issue's key and the page's id inside a value,
 * which the composed expectation turns into `fill` placeholders), and the page it creates can feed a
 * later step.
 *
 * Introduced names: none (`introduces` returns []). The page title derives from a fixture issue, so a
 * train task may document the same fixture summary as an eval task (and, since keys are shuffled per
 * seed, occasionally under the same "KEY: summary" title: 6 of the first 150 train tasks). Eval and
 * train seeds are disjoint, so no train task shares an eval task's site, issue key + seed, parent and
 * prompt; pools of invented titles would only matter if the task made names up, which it does not.
 */

import type { Expectation } from "../../reward/expectation.ts";
import { wikiBase } from "../../sandbox/confluence/present.ts";
import { PAGE_ID_START } from "../../sandbox/confluence/store.ts";
import { escapeXml } from "../../sandbox/fixtures/text.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { paraphrase } from "../prompts.ts";
import { aliasSolutions } from "./alias-solutions.ts";
import { pageUrls } from "./page-urls.ts";
import { addTwinIssue, addTwinPage, pickIssue, pickParent } from "./picks.ts";

export interface PageLinkExpected {
  issueKey: string;
  issueId: string;
  summary: string;
  projectName: string;
  /** Whether the prompt names the issue by key (else by summary and project name). */
  byKey: boolean;
  spaceKey: string;
  spaceId: string;
  spaceName: string;
  parentTitle: string;
  parentId: string;
  /** The page title the task asks for: "<issue key>: <issue summary>". */
  title: string;
}

const FORMAT = '"<issue key>: <issue summary>" (for example "ABC-12: Fix the login page")';

const PROMPTS = [
  `Write up {issue} in Confluence: create a page in {space} under "{parent}", titled ${FORMAT}, with the issue key and summary in its body. Then link the page from the issue with a remote link whose URL is the page's web URL and whose title is the page title.`,
  `Please create a Confluence page documenting {issue}. It goes in {space}, as a child of "{parent}". Use the title format ${FORMAT} and put the key and summary in the body. Afterwards add a web link on the issue pointing to the new page (URL: the page's web URL; link title: the page title).`,
  `{issue} needs a documentation page. Create it under "{parent}" in {space} with the title ${FORMAT} and a body that mentions the issue key and summary. Finally, add a remote link from the issue to the page, titled like the page and pointing at its web URL.`,
  `Can you document {issue} on Confluence? Make a page under "{parent}" in {space} named ${FORMAT}, whose body includes the issue key and summary, and then give the issue a remote link to that page: the link's URL is the page's web URL and its title is the page title.`,
  `Create a child page of "{parent}" in {space} that documents {issue}. Title: ${FORMAT}; body: mention the issue key and summary. Then, on the issue, add a remote link with the page's web URL as the URL and the page title as the title.`,
  `We track {issue} in Jira but have no page for it yet. Add one in {space} under "{parent}", titled ${FORMAT}, mentioning the key and summary in the body, and link it back from the issue with a remote link (URL = the page's web URL, title = the page title).`,
  `Set up a Confluence page for {issue} in {space}, below the page "{parent}". Its title must be ${FORMAT} and its body must mention the issue key and summary. Once it exists, add a remote link on the issue whose URL is the page's web URL and whose title is the page's title.`,
];

export default defineScenario<PageLinkExpected>({
  id: "cross-product-page-link-v1",
  description:
    "Create a Confluence page documenting a Jira issue under a given parent, then link it from the issue with a remote link.",
  tools: [
    "jira_get_issue",
    "jira_search_issues",
    "jira_create_remote_link",
    "jira_get_remote_links",
    "confluence_get_spaces",
    "confluence_get_pages",
    "confluence_get_page",
    "confluence_create_page",
  ],
  generate({ site, random, level, bound }) {
    const issue = bound ? site.get("issues", bound.id)! : pickIssue(site, random, level);
    const project = site.get("projects", issue.projectId)!;
    const parent = pickParent(site, random, level);
    const space = site.get("spaces", parent.spaceId)!;
    if (level === 2 && !bound) {
      addTwinIssue(site, random, issue);
      addTwinPage(site, random, parent.title, space.id);
    }
    const byKey = level === 1 || bound !== undefined;
    const values = {
      issue:
        bound?.describe ??
        (byKey ? issue.key : `the issue "${issue.summary}" in the ${project.name} project`),
      space: level === 1 ? `the ${space.key} space` : `the "${space.name}" space`,
      parent: parent.title,
    };
    const prompt = paraphrase(random, PROMPTS, values);
    return {
      prompt: prompt[0]!.toUpperCase() + prompt.slice(1),
      expected: {
        issueKey: issue.key,
        issueId: issue.id,
        summary: issue.summary,
        projectName: project.name,
        byKey,
        spaceKey: space.key,
        spaceId: space.id,
        spaceName: space.name,
        parentTitle: parent.title,
        parentId: parent.id,
        title: `${issue.key}: ${issue.summary}`,
      },
    };
  },
  /** None: the page title derives from a fixture issue (see the top comment). */
  introduces: () => [],
  expect({ expected: e }, site, { baseUrl, restBaseUrl }): Expectation {
    /** The id the first page created on this site gets (see the top comment). */
    const pageId = String(site.fork().nextId("page", PAGE_ID_START));
    return {
      entities: [
        {
          kind: "create",
          ref: "page",
          label: `a page "${e.title}" under "${e.parentTitle}" in ${e.spaceKey} that mentions ${e.issueKey} and its summary`,
          table: "pages",
          fields: {
            spaceId: { equals: e.spaceId },
            parentId: { equals: e.parentId },
            title: { equals: e.title },
            body: { includesText: [e.issueKey, e.summary] },
          },
        },
        {
          kind: "create",
          ref: "link",
          label: `a remote link on ${e.issueKey} to the new page, titled like it`,
          table: "remoteLinks",
          fields: {
            issueId: { equals: e.issueId },
            "object.url": {
              oneOf: [baseUrl, ...(restBaseUrl ? [restBaseUrl] : [])].flatMap((base) =>
                pageUrls(wikiBase(base), e.spaceKey, pageId, e.title),
              ),
            },
            "object.title": { equals: e.title },
          },
        },
      ],
      validate: [
        { table: "issues", id: e.issueId },
        { table: "spaces", id: e.spaceId },
        { table: "pages", id: e.parentId },
      ],
      budget: 6 + 3,
      points: { fields: 0.7, validate: 0.15, verify: 0.15 },
      weights: {
        "page.spaceId": 0.05,
        "page.parentId": 0.1,
        "page.title": 0.1,
        "page.body": 0.1,
        "link.issueId": 0.05,
        "link.object.url": 0.2,
        "link.object.title": 0.1,
      },
    };
  },
  *reference({ expected: e }) {
    let key = e.issueKey;
    let summary = e.summary;
    if (e.byKey) {
      const issue = yield call("jira_get_issue", { issueIdOrKey: key, fields: ["summary"] });
      summary = (issue.body as { fields: { summary: string } }).fields.summary;
    } else {
      const jql = `project = "${e.projectName}" AND summary ~ "${e.summary.replace(/"/g, '\\"')}"`;
      const found = yield call("jira_search_issues", { jql, fields: ["summary"] });
      const issues = (found.body as { issues: { key: string; fields: { summary: string } }[] }).issues;
      key = issues.find((i) => i.fields.summary === e.summary)!.key;
    }
    const spaces = yield call("confluence_get_spaces", e.byKey ? { keys: [e.spaceKey] } : {});
    const space = (spaces.body as { results: { id: string; key: string; name: string }[] }).results.find(
      (s) => (e.byKey ? s.key === e.spaceKey : s.name === e.spaceName),
    )!;
    const pages = yield call("confluence_get_pages", { "space-id": [space.id], title: e.parentTitle });
    const parentId = (pages.body as { results: { id: string }[] }).results[0]!.id;
    const title = `${key}: ${summary}`;
    const value = `<p>This page documents the Jira issue <strong>${key}</strong>: ${escapeXml(summary)}.</p>`;
    const created = yield call("confluence_create_page", {
      spaceId: space.id,
      parentId,
      status: "current",
      title,
      body: { representation: "storage", value },
    });
    const page = created.body as { id: string; _links: { base: string; webui: string } };
    yield call("jira_create_remote_link", {
      issueIdOrKey: key,
      object: { url: `${page._links.base}${page._links.webui}`, title },
    });
    yield call("jira_get_remote_links", { issueIdOrKey: key });
    return `Created the page "${title}" (id ${page.id}) and linked it from ${key}.`;
  },
  aliasSolutions,
  step: { consumes: ["issue"], produces: { kind: "page", table: "pages" } },
});
