/**
 * confluence-page-create-v1: create a page with a given title and body in a space, under a parent page
 * given by title. The parent always has a look-alike title in its space ("Release Notes 2026" /
 * "Release Notes 2025", "Architecture" / "Architecture Decisions", "On-call" / "On-call Guide").
 * Level 1 names the space by key. Level 2 names it by name ("the Operations Handbook space"); the
 * generator gives the parent an exact twin in another space, adds look-alike and filler pages so the
 * space has more pages than one page of results (25), and puts a page with the new title in another
 * space (titles are unique per space only, so the new title is still free where it is asked for).
 *
 * Reward constants (both levels): R1 0.7 on the createPage call — spaceId 0.1, parentId 0.15, status
 * current 0.05 (omitted counts: it is the API default), title exact 0.15, storage representation 0.1,
 * body value containing the first sentence of the requested text 0.15; R2 validate 0.15 (before
 * creating, read the space with getSpaces, or the parent / the space's pages / the new title with
 * getPages, getPagesInSpace, getPageById or getChildPages), verify 0.15 (getPageById on the new page
 * after creating). Budget: the reference's 5 calls + 3 = 8. Default penalties. State: exactly one page
 * created, current, in the space, under the parent, with the exact title and a storage body containing
 * the phrase; nothing else changes.
 */

import { contains, equals, type Matcher } from "../../reward/matchers.ts";
import { arg, type CallInput } from "../../reward/spec.ts";
import { expectCreated } from "../../reward/state.ts";
import type { Page, PageBody, Space } from "../../sandbox/confluence/model.ts";
import { insertPage } from "../../sandbox/confluence/store.ts";
import { escapeXml, storageParagraphs } from "../../sandbox/fixtures/text.ts";
import type { Random } from "../../sandbox/random.ts";
import type { Site } from "../../sandbox/site.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { paraphrase } from "../prompts.ts";
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
  generate({ site, random, level, split }) {
    const parent = random.pick(parentCandidates(site));
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
  reward({ expected: e }, site) {
    const inSpace = (i: CallInput) => ids(i.params["space-id"]).includes(e.spaceId);
    const ancestors = ancestorIds(site, e.parentId);
    const b = "body.body";
    return {
      mutations: [
        {
          label: `create "${e.title}" under "${e.parentTitle}" in ${e.spaceKey}`,
          operationId: "createPage",
          args: [
            arg("spaceId", "body.spaceId", equals(e.spaceId), 0.1),
            arg("parentId", "body.parentId", equals(e.parentId), 0.15),
            arg("status", "body.status", currentOrDefault, 0.05),
            arg("title", "body.title", exactly(e.title), 0.15),
            arg("body representation", b, storageBody, 0.1),
            arg("body content", [`${b}.value`, `${b}.storage.value`], contains(e.phrase), 0.15),
          ],
        },
      ],
      validate: {
        points: 0.15,
        reads: [
          { label: "a CQL search for the space or the parent", operationIds: ["searchByCQL"] },
          {
            label: `the ${e.spaceKey} space`,
            operationIds: ["getSpaces"],
            target: (i) =>
              ids(i.params.keys).includes(e.spaceKey) ||
              ids(i.params.ids).includes(e.spaceId) ||
              (i.params.keys === undefined && i.params.ids === undefined),
          },
          {
            label: "the parent page or the new title in the space",
            operationIds: ["getPages"],
            target: (i) =>
              inSpace(i) ||
              [e.parentTitle, e.title].includes(String(i.params.title)) ||
              ids(i.params.id).includes(e.parentId),
          },
          {
            label: "the space's page list",
            operationIds: ["getPagesInSpace"],
            target: (i) => String(i.params.id) === e.spaceId,
          },
          {
            label: "the parent or its ancestors (page or children)",
            operationIds: ["getPageById", "getChildPages"],
            target: (i) => ancestors.includes(String(i.params.id)),
          },
        ],
      },
      verify: {
        points: 0.15,
        reads: [
          {
            label: "the new page",
            operationIds: ["getPageById"],
            target: (i) => /^\d+$/.test(String(i.params.id)) && !site.get("pages", String(i.params.id)),
          },
        ],
      },
      budget: 8,
      state: [
        expectCreated(`a page "${e.title}" under "${e.parentTitle}" in ${e.spaceKey}`, "pages", {
          spaceId: equals(e.spaceId),
          parentId: equals(e.parentId),
          title: exactly(e.title),
          status: equals("current"),
          body: storedBodyContaining(e.phrase),
        }),
      ],
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
});

/** Ids from a query value: an array, a comma-separated string or a single number. */
function ids(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => String(v).trim());
  if (typeof value === "string") return value.split(",").map((v) => v.trim());
  if (typeof value === "number") return [String(value)];
  return [];
}

/** The title exactly as asked (surrounding whitespace is trimmed by Confluence). */
const exactly = (title: string): Matcher => ({
  describe: `is exactly ${JSON.stringify(title)}`,
  test: (v) => typeof v === "string" && v.trim() === title,
});

const currentOrDefault: Matcher = {
  describe: 'is "current" (or omitted, the default)',
  test: (v) => v === undefined || v === "current",
};

/** A createPage body in storage representation, flat `{representation, value}` or nested `{storage: {...}}`. */
const storageBody: Matcher = {
  describe: "is a storage-format body",
  test: (v) => {
    if (typeof v !== "object" || v === null) return false;
    const body = v as { representation?: unknown; storage?: { representation?: unknown } };
    if (body.representation !== undefined) return body.representation === "storage";
    return typeof body.storage === "object" && (body.storage.representation ?? "storage") === "storage";
  },
};

/** A stored page body ({representation, value}) in storage format whose value contains the phrase. */
function storedBodyContaining(phrase: string): Matcher {
  const inner = contains(phrase);
  return {
    describe: `is a storage body that ${inner.describe}`,
    test: (v) =>
      (v as PageBody | undefined)?.representation === "storage" && inner.test((v as PageBody).value),
  };
}

/** The page and its ancestors: reading any of them (or their children) is part of finding the parent. */
function ancestorIds(site: Site, pageId: string): string[] {
  const chain: string[] = [];
  for (let p = site.get("pages", pageId); p; p = p.parentId ? site.get("pages", p.parentId) : undefined)
    chain.push(p.id);
  return chain;
}

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
  const authorId = space.authorId;
  const createdAt = site.tick(1_800_000);
  insertPage(site, {
    spaceId: space.id,
    parentId: parentId ?? space.homepageId,
    title,
    status: "current",
    authorId,
    ownerId: authorId,
    createdAt,
    version: { number: 1, message: "", minorEdit: false, authorId, createdAt },
    body: { representation: "storage", value: storageParagraphs([`${title}.`]) },
  });
}
