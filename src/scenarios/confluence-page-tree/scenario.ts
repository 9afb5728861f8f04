/**
 * confluence-page-tree-v1: create a parent page (with a one-sentence body) under an existing page, then
 * N empty child pages under the new parent, in the order given (the page tree shows them in that order).
 * Level 1: the space by key, the anchor page by title, 2–3 children. Level 2: the space by name, the
 * anchor's title also in another space and a "Copy of <anchor>" beside it, 3–4 children. Level 3: the
 * anchor is "the page of <space name> labelled <label>" (the label also marks a page in another space;
 * 30 filler pages make the space's listing span pages), 4–5 children; in a quarter of level-3 tasks
 * (mustDecline) no page of that space has the label and the task must be declined without any write.
 *
 * Expectation: the parent is created in the space under the anchor with the requested visible text;
 * child i is created in the space under the parent at position i; every other field holds the API's
 * default (published, empty body for the children), as the engine learns from the reference. The parent's id is predicted as the next value of the initial site's page
 * counter (as cross-product-page-link does): a passing trace creates exactly these pages, the parent
 * first (children need its id), and a rejected createPage allocates no id. Validation: a read of the
 * space or the anchor page. Points: fields 0.7, validate 0.15, verify 0.15. Budget: reference calls + 4.
 * Introduced names: every page title.
 */
import type { EntityExpectation, Expectation } from "../../reward/expectation.ts";
import { attachLabel, PAGE_ID_START } from "../../sandbox/confluence/store.ts";
import { escapeXml } from "../../sandbox/fixtures/text.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { workPoints } from "../expectation-parts.ts";
import { paraphrase } from "../prompts.ts";
import {
  addCopyPage,
  addFillerPages,
  addTwinPage,
  contentPages,
  DECLINE_CLAUSE,
  mustDecline,
  quotedList,
  spaceOf,
} from "../site-picks.ts";
import { aliasSolutions } from "./alias-solutions.ts";
import { ANCHOR_LABELS, SECTIONS, themes } from "./pools.ts";

export interface PageTreeExpected {
  spaceId: string;
  spaceKey: string;
  spaceName: string;
  /** The existing page the new parent goes under; null when the task must be declined. */
  anchorId: string | null;
  anchorTitle: string;
  /** Level 3: the label that marks the anchor page. */
  anchorLabel?: string;
  via: "key" | "name" | "label";
  title: string;
  text: string;
  children: string[];
  refuse?: string;
}

const PROMPTS = [
  'Create a page "{title}" {where} with the text "{text}". Then create these child pages under it, in this order: {children}. Leave the child pages empty.',
  'Set up a small page tree {where}: a parent page "{title}" whose body reads "{text}", and under it the empty child pages {children}, in that order.',
  'Please add the page "{title}" {where} (body: "{text}") and give it the child pages {children}, created in exactly that order and left blank.',
  'We need a new section of the wiki: create "{title}" {where}, with the body text "{text}", then the child pages {children} below it, in the order listed and without any content.',
];

export default defineScenario<PageTreeExpected>({
  id: "confluence-page-tree-v1",
  description: "Create a parent page under a given page and N child pages under it, in order.",
  tools: [
    "confluence_get_spaces",
    "confluence_get_pages",
    "confluence_get_page",
    "confluence_search_cql",
    "confluence_create_page",
    "confluence_get_child_pages",
  ],
  lookups: [["searchByCQL", "getPageLabels", "getLabelsForContent"]],
  levels: [1, 2, 3],
  generate({ site, random, level, split }) {
    const theme = random.pick(themes(split));
    const count = level === 1 ? random.int(2, 3) : level === 2 ? random.int(3, 4) : random.int(4, 5);
    const children = random
      .shuffle(SECTIONS.slice(0, count + 1))
      .slice(0, count)
      .map((s) => `${theme} ${s}`);
    const anchor = random.pick(contentPages(site));
    const space = spaceOf(site, anchor);
    const text = `This page collects everything about the ${theme}.`;
    const e: PageTreeExpected = {
      spaceId: space.id,
      spaceKey: space.key,
      spaceName: space.name,
      anchorId: anchor.id,
      anchorTitle: anchor.title,
      via: level === 1 ? "key" : level === 2 ? "name" : "label",
      title: theme,
      text,
      children,
    };
    let where = `under "${anchor.title}" in the ${space.key} space`;
    if (level === 2) {
      addTwinPage(site, random, anchor);
      addCopyPage(site, anchor);
      where = `under "${anchor.title}" in the "${space.name}" space`;
    }
    if (level === 3) {
      const label = random.pick(ANCHOR_LABELS);
      addFillerPages(site, space, 30, anchor.authorId);
      const elsewhere = random.pick(contentPages(site).filter((p) => p.spaceId !== space.id));
      attachLabel(site, elsewhere.id, "global", label);
      e.anchorLabel = label;
      where = `under the page of the "${space.name}" space that carries the label "${label}"`;
      if (mustDecline(site)) {
        e.anchorId = null;
        e.refuse = `No page of the "${space.name}" space carries the label "${label}".`;
      } else attachLabel(site, anchor.id, "global", label);
    }
    const values = { title: theme, where, text, children: quotedList(children) };
    const prompt = paraphrase(random.derive("prompt"), PROMPTS, values);
    return { prompt: level === 3 ? prompt + DECLINE_CLAUSE : prompt, expected: e };
  },
  introduces: (e) => [e.title, ...e.children],
  expect({ expected: e }, site): Expectation {
    const points = workPoints();
    const budget = e.children.length + (e.via === "label" ? 5 : 4) + 4;
    const space = { table: "spaces" as const, id: e.spaceId };
    if (e.anchorId === null)
      return {
        entities: [],
        validate: [space],
        refuse: e.refuse,
        refuseNames: [e.anchorLabel!],
        budget,
        points,
      };
    const parentId = String(site.fork().nextId("page", PAGE_ID_START));
    const page = (title: string) => ({ title: { equals: title }, spaceId: { equals: e.spaceId } });
    const entities: EntityExpectation[] = [
      {
        kind: "create",
        ref: `"${e.title}"`,
        label: `"${e.title}" is created under "${e.anchorTitle}" with the requested text`,
        table: "pages",
        fields: {
          ...page(e.title),
          parentId: { equals: e.anchorId },
          body: { visibleText: e.text },
        },
      },
      ...e.children.map(
        (title, i): EntityExpectation => ({
          kind: "create",
          ref: `"${title}"`,
          label: `"${title}" is child ${i + 1} of "${e.title}", empty`,
          table: "pages",
          fields: {
            ...page(title),
            parentId: { equals: parentId },
            position: { equals: i },
          },
        }),
      ),
    ];
    return {
      entities,
      validate: [space, { table: "pages", id: e.anchorId }],
      budget,
      points,
    };
  },
  *reference({ expected: e }) {
    let spaceId: string;
    let anchorId: string;
    if (e.via === "label") {
      const spaces = yield call("confluence_get_spaces", {});
      const key = (spaces.body as { results: { key: string; name: string }[] }).results.find(
        (s) => s.name === e.spaceName,
      )!.key;
      const cql = `type=page AND space="${key}" AND label="${e.anchorLabel}"`;
      const found = yield call("confluence_search_cql", { cql });
      const hit = (found.body as { results: { content: { id: string } }[] }).results[0];
      if (!hit)
        return `I did not change anything: no page of the "${e.spaceName}" space carries the label "${e.anchorLabel}".`;
      const anchor = yield call("confluence_get_page", { id: hit.content.id });
      anchorId = hit.content.id;
      spaceId = (anchor.body as { spaceId: string }).spaceId;
    } else {
      const spaces = yield call("confluence_get_spaces", e.via === "key" ? { keys: [e.spaceKey] } : {});
      spaceId = (spaces.body as { results: { id: string; key: string; name: string }[] }).results.find((s) =>
        e.via === "key" ? s.key === e.spaceKey : s.name === e.spaceName,
      )!.id;
      const pages = yield call("confluence_get_pages", { "space-id": [spaceId], title: e.anchorTitle });
      anchorId = (pages.body as { results: { id: string }[] }).results[0]!.id;
    }
    const parent = yield call("confluence_create_page", {
      spaceId,
      parentId: anchorId,
      status: "current",
      title: e.title,
      body: { representation: "storage", value: `<p>${escapeXml(e.text)}</p>` },
    });
    const parentId = (parent.body as { id: string }).id;
    for (const title of e.children)
      yield call("confluence_create_page", { spaceId, parentId, status: "current", title });
    yield call("confluence_get_child_pages", { id: parentId });
    return `Created "${e.title}" (id ${parentId}) with the child pages ${quotedList(e.children)}.`;
  },
  aliasSolutions,
});
