/**
 * confluence-page-create-v1: create a page with a given title and body in a space, under a parent page
 * given by title. The parent always has a look-alike title in its space ("Release Notes 2026" /
 * "Release Notes 2025", "Architecture" / "Architecture Decisions", "On-call" / "On-call Guide").
 * Level 1 names the space by key. Level 2 names it by name ("the Operations Handbook space"); the
 * generator gives the parent an exact twin in another space, adds look-alike and filler pages so the
 * space has more pages than one page of results (25), and puts a page with the new title in another
 * space (titles are unique per space only, so the new title is still free where it is asked for).
 *
 * Expectation (both levels): one page created in the space, under the parent, with the exact title
 * and a body whose visible text is exactly the requested text, in storage or atlas_doc_format (fields
 * 0.7: spaceId 0.1, parentId 0.15, title 0.15, body 0.3); every other field as the API sets it
 * (current, authored and owned by the agent). Validate 0.15: a read of the space or the parent before
 * creating (a listing or search counts when its result holds one); verify 0.15. Budget: the
 * reference's 5 calls + 3 = 8. Nothing else changes.
 */

import type { Expectation } from "../../reward/expectation.ts";
import type { Page, Space } from "../../sandbox/confluence/model.ts";
import { escapeXml } from "../../sandbox/fixtures/text.ts";
import type { Random } from "../../sandbox/random.ts";
import type { Site } from "../../sandbox/site.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { paraphrase } from "../prompts.ts";
import { addNotePage } from "../site-picks.ts";
import { aliasSolutions } from "./alias-solutions.ts";
import { pageBodies, pageTitles, phraseOf } from "./pools.ts";

export interface PageCreateExpected {
  spaceKey: string;
  spaceId: string;
  spaceName: string;
  /** Whether the prompt names the space by key (else by name). */
  byKey: boolean;
  parentTitle: string;
  parentId: string;
  title: string;
  /** The text the page should contain, as the prompt gives it. */
  body: string;
  /** The distinctive phrase of the body the reward looks for. */
  phrase: string;
}

const PROMPTS = [
  'Create a Confluence page titled "{title}" in {space}, under the page "{parent}". Its content should be: "{body}"',
  'In {space}, add a child page of "{parent}" called "{title}" with this text: "{body}"',
  'Please publish a new page "{title}" below "{parent}" in {space}. Body: "{body}"',
  'We need a page named "{title}" nested under "{parent}" ({space}). Put this in it: "{body}"',
  'Can you write up "{title}" as a new page beneath "{parent}" in {space}? It should read: "{body}"',
  'Add a page to {space} under "{parent}". Title: "{title}". Content: "{body}"',
  'Document the following in a new Confluence page "{title}" under "{parent}" in {space}: "{body}"',
];

export default defineScenario<PageCreateExpected>({
  id: "confluence-page-create-v1",
  description:
    "Create a Confluence page with a given title and body in a space, under a parent page given by title.",
  tools: [
    "confluence_get_spaces",
    "confluence_get_pages",
    "confluence_get_page",
    "confluence_get_child_pages",
    "confluence_create_page",
  ],
  generate({ site, random, level, split, bound }) {
    const parent = bound ? site.get("pages", bound.id)! : random.pick(parentCandidates(site));
    const space = site.get("spaces", parent.spaceId)!;
    const title = random.pick(pageTitles(split));
    const body = random.pick(pageBodies(split));
    const byKey = level === 1;
    if (level === 2) addDistractors(site, random.derive("distractors"), parent, title);
    const values = {
      title,
      parent: parent.title,
      body,
      space: byKey ? `the ${space.key} space` : `the ${space.name} space`,
    };
    return {
      prompt: paraphrase(random.derive("prompt"), PROMPTS, values),
      expected: {
        spaceKey: space.key,
        spaceId: space.id,
        spaceName: space.name,
        byKey,
        parentTitle: parent.title,
        parentId: parent.id,
        title,
        body,
        phrase: phraseOf(body),
      },
    };
  },
  expect({ expected: e }): Expectation {
    return {
      entities: [
        {
          kind: "create",
          ref: "page",
          label: `a page "${e.title}" under "${e.parentTitle}" in ${e.spaceKey}`,
          table: "pages",
          fields: {
            spaceId: { equals: e.spaceId },
            parentId: { equals: e.parentId },
            title: { equals: e.title },
            body: { visibleText: e.body },
          },
        },
      ],
      validate: [
        { table: "spaces", id: e.spaceId },
        { table: "pages", id: e.parentId },
      ],
      budget: 8,
      points: { fields: 0.7, validate: 0.15, verify: 0.15 },
      weights: { "page.spaceId": 0.1, "page.parentId": 0.15, "page.title": 0.15, "page.body": 0.3 },
    };
  },
  introduces: (e) => [e.title],
  *reference({ expected: e }) {
    const spaces = yield call("confluence_get_spaces", e.byKey ? { keys: [e.spaceKey] } : {});
    const space = (spaces.body as { results: Space[] }).results.find((s) =>
      e.byKey ? s.key === e.spaceKey : s.name === e.spaceName,
    )!;
    const parents = yield call("confluence_get_pages", { "space-id": [space.id], title: e.parentTitle });
    const parent = (parents.body as { results: Page[] }).results[0]!;
    const taken = yield call("confluence_get_pages", { "space-id": [space.id], title: e.title });
    if ((taken.body as { results: Page[] }).results.length > 0) return `"${e.title}" already exists.`;
    const created = yield call("confluence_create_page", {
      spaceId: space.id,
      parentId: parent.id,
      status: "current",
      title: e.title,
      body: { representation: "storage", value: `<p>${escapeXml(e.body)}</p>` },
    });
    const id = (created.body as { id: string }).id;
    yield call("confluence_get_page", { id, "body-format": "storage" });
    return `Created "${e.title}" (page ${id}) under "${e.parentTitle}" in ${space.key}.`;
  },
  aliasSolutions,
  step: { produces: { kind: "page", table: "pages" }, consumes: ["page"] },
});

const firstWord = (title: string) => title.split(" ")[0]!.toLowerCase();

/** Published non-home pages that share their first word with another such page in the same space. */
function parentCandidates(site: Site): Page[] {
  const homes = new Set([...site.values("spaces")].map((s) => s.homepageId));
  const pages = [...site.values("pages")].filter((p) => p.status === "current" && !homes.has(p.id));
  return pages.filter((p) =>
    pages.some((o) => o !== p && o.spaceId === p.spaceId && firstWord(o.title) === firstWord(p.title)),
  );
}

const LOOKALIKES = ["Copy of {t}", "{t} Draft", "{t} (old)", "{t} Archive", "Notes on {t}"];

/**
 * Level 2: the parent's exact twin in another space, a page with the new title in another space, and
 * look-alike plus filler pages in the parent's space until it has more than one page of results.
 */
function addDistractors(site: Site, random: Random, parent: Page, title: string): void {
  const others = [...site.values("spaces")].filter((s) => s.id !== parent.spaceId);
  addPage(site, random.pick(others), null, parent.title);
  addPage(site, random.pick(others), null, title);
  const space = site.get("spaces", parent.spaceId)!;
  for (const pattern of random.shuffle(LOOKALIKES).slice(0, 3))
    addPage(site, space, parent.parentId, pattern.replace("{t}", parent.title));
  const target = 30 + random.int(0, 10);
  const count = () => [...site.values("pages")].filter((p) => p.spaceId === space.id).length;
  for (let week = 1; count() < target; week++)
    addPage(site, space, null, `${space.name} Weekly Sync ${String(week).padStart(2, "0")}`);
}

/** Inserts a current page (under the space homepage unless a parent is given) if its title is free there. */
function addPage(site: Site, space: Space, parentId: string | null, title: string): void {
  const taken = [...site.values("pages")].some(
    (p) => p.spaceId === space.id && p.title.toLowerCase() === title.toLowerCase(),
  );
  if (taken) return;
  const createdAt = site.tick(1_800_000);
  addNotePage(site, {
    spaceId: space.id,
    parentId: parentId ?? space.homepageId,
    title,
    authorId: space.authorId,
    createdAt,
  });
}
