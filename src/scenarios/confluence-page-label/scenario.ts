/**
 * confluence-page-label-v1: add labels to a Confluence page found by title in a space, adding only the
 * labels it does not already have. The target page always carries labels before the task (1–2 at
 * level 1, 2 at level 2) and the request sometimes repeats one of them. Level 1 asks for 2 labels and
 * names the space by key. Level 2 asks for 3, names the space by its name, and adds two look-alikes:
 * a page with the same title in another space that already carries one of the requested new labels (an
 * agent that reads the wrong page skips it), and a "Copy of <title>" page in the same space.
 *
 * Expectation (both levels): one pageLabels row created per missing label (that page, that name; its
 * prefix as the API sets it, global), judged by outcome: one call for all labels, one call per label
 * (single-label alias tools) or the v1 and v2 label endpoints earn the same; fields 0.7 split equally.
 * Re-adding a label the page already has changes nothing on the site: a write that changes nothing costs
 * `wasted_mutation`; adding it inside a call that also adds a missing one is invisible and costs nothing.
 * Validate 0.15: a read of the page (its labels, or a listing that holds it) before the first add;
 * verify 0.15. Budget 8 (the reference's 5 calls + 3). Introduces the missing labels.
 */

import type { Expectation } from "../../reward/expectation.ts";
import type { Page } from "../../sandbox/confluence/model.ts";
import { attachLabel, insertPage, labelsOf } from "../../sandbox/confluence/store.ts";
import { PAGE_LABELS } from "../../sandbox/fixtures/pools.ts";
import type { Random } from "../../sandbox/random.ts";
import type { Site } from "../../sandbox/site.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { paraphrase } from "../prompts.ts";
import { addCopyPage } from "../site-picks.ts";
import { aliasSolutions } from "./alias-solutions.ts";
import { newLabels } from "./pools.ts";

export interface LabelExpected {
  pageId: string;
  title: string;
  spaceId: string;
  spaceKey: string;
  spaceName: string;
  /** Whether the prompt names the space by its name (else by key). */
  bySpaceName: boolean;
  /** The labels the prompt asks for, in prompt order. */
  requested: string[];
  /** The page's labels before the task (all global). */
  existing: string[];
  /** The requested labels the page does not have yet: exactly these must be added. */
  missing: string[];
}

const PROMPTS = [
  'Add the labels {labels} to the page "{title}" in {space}. Some may already be on it; only add the ones that are missing.',
  'Please tag the Confluence page "{title}" ({space}) with {labels}, without adding any label it already has.',
  'The page "{title}" in {space} should carry the labels {labels}. Check its current labels first and add only the missing ones.',
  'Label "{title}" in {space} with {labels}. Do not duplicate labels that are already there.',
  'Can you make sure the page "{title}" in {space} has the labels {labels}? Add just the ones it does not have yet.',
  'We need {labels} on the Confluence page "{title}" in {space}. Leave its existing labels alone and do not re-add any of them.',
  'In {space}, find the page titled "{title}" and add the labels {labels}, but only those it is missing.',
];

export default defineScenario<LabelExpected>({
  id: "confluence-page-label-v1",
  description:
    "Add labels to a Confluence page found by title in a space, adding only those it does not already have.",
  tools: [
    "confluence_get_spaces",
    "confluence_get_pages",
    "confluence_get_page",
    "confluence_get_page_labels",
    "confluence_add_page_labels",
  ],
  generate({ site, random, level, split, bound }) {
    const page = bound ? site.get("pages", bound.id)! : pickPage(site, random, level);
    const space = site.get("spaces", page.spaceId)!;
    // A page an earlier workflow step creates has no labels yet (and the generation site is a scratch copy).
    const existing = bound ? [] : ensureLabels(site, random, page, level);
    const count = level === 1 ? 2 : 3;
    const repeatOne = !bound && random.next() < (level === 1 ? 0.6 : 0.8);
    const missing = random.shuffle(newLabels(split)).slice(0, repeatOne ? count - 1 : count);
    const requested = random.shuffle(repeatOne ? [...missing, random.pick(existing)] : missing);
    if (level === 2) addLookalikes(site, random, page, missing);
    const bySpaceName = level === 2;
    const values = {
      labels: listOf(requested),
      title: page.title,
      space: bySpaceName ? `the "${space.name}" space` : `the ${space.key} space`,
    };
    return {
      prompt: paraphrase(random.derive("prompt"), PROMPTS, values),
      expected: {
        pageId: page.id,
        title: page.title,
        spaceId: space.id,
        spaceKey: space.key,
        spaceName: space.name,
        bySpaceName,
        requested,
        existing,
        missing: requested.filter((name) => missing.includes(name)),
      },
    };
  },
  introduces: (expected) => expected.missing,
  expect({ expected: e }): Expectation {
    return {
      entities: e.missing.map((name) => ({
        kind: "create" as const,
        ref: `label ${name}`,
        label: `label "${name}" on "${e.title}"`,
        table: "pageLabels" as const,
        fields: { pageId: { equals: e.pageId }, name: { equals: name } },
      })),
      validate: [{ table: "pages", id: e.pageId }],
      budget: 8,
      points: { fields: 0.7, validate: 0.15, verify: 0.15 },
    };
  },
  *reference({ expected: e }) {
    const spaces = yield call("confluence_get_spaces", e.bySpaceName ? {} : { keys: [e.spaceKey] });
    const spaceId = (spaces.body as { results: { id: string; key: string; name: string }[] }).results.find(
      (s) => (e.bySpaceName ? s.name === e.spaceName : s.key === e.spaceKey),
    )!.id;
    const pages = yield call("confluence_get_pages", { "space-id": [spaceId], title: e.title });
    const pageId = (pages.body as { results: { id: string; spaceId: string; title: string }[] }).results.find(
      (p) => p.spaceId === spaceId && p.title === e.title,
    )!.id;
    const before = yield call("confluence_get_page_labels", { id: pageId });
    const have = new Set((before.body as { results: { name: string }[] }).results.map((l) => l.name));
    const missing = e.requested.filter((name) => !have.has(name));
    yield call("confluence_add_page_labels", {
      id: pageId,
      labels: missing.map((name) => ({ prefix: "global", name })),
    });
    yield call("confluence_get_page_labels", { id: pageId });
    const skipped = e.requested.filter((name) => have.has(name));
    const note = skipped.length > 0 ? ` (${skipped.join(", ")} was already there)` : "";
    return `Added ${missing.join(", ")} to "${e.title}"${note}.`;
  },
  aliasSolutions,
  step: { consumes: ["page"] },
});

/** `"a" and "b"` / `"a", "b" and "c"`. */
function listOf(names: string[]): string {
  const quoted = names.map((n) => `"${n}"`);
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
}

/** Pages below the space home pages; level 2 prefers titles whose first word another page in the space shares. */
function pickPage(site: Site, random: Random, level: number): Page {
  const pages = [...site.values("pages")].filter((p) => p.parentId !== null && p.status === "current");
  if (level === 1) return random.pick(pages);
  const first = (p: Page) => p.title.split(" ")[0];
  return random.pick(
    pages.filter((p) => pages.some((o) => o !== p && o.spaceId === p.spaceId && first(o) === first(p))),
  );
}

/** Tops the page up to 1–2 labels (level 1) or 2 (level 2) from the fixture's pool; returns their names. */
function ensureLabels(site: Site, random: Random, page: Page, level: number): string[] {
  const want = level === 1 ? random.int(1, 2) : 2;
  const have = labelsOf(site, page.id).map((l) => l.name);
  const extra = random.shuffle(PAGE_LABELS.filter((l) => !have.includes(l)));
  for (const name of extra.slice(0, Math.max(0, want - have.length)))
    attachLabel(site, page.id, "global", name);
  return labelsOf(site, page.id).map((l) => l.name);
}

/**
 * Level 2 distractors: the same title in another space, carrying one of the requested new labels and
 * another fixture label; and "Copy of <title>" beside the page, with the page's labels.
 */
function addLookalikes(site: Site, random: Random, page: Page, fresh: string[]): void {
  const { id: _id, position: _position, ...fields } = page;
  const other = random.pick([...site.values("spaces")].filter((s) => s.id !== page.spaceId));
  const twin = insertPage(site, { ...fields, spaceId: other.id, parentId: other.homepageId });
  attachLabel(site, twin.id, "global", random.pick(fresh));
  attachLabel(site, twin.id, "global", random.pick(PAGE_LABELS));
  const copy = addCopyPage(site, page);
  for (const label of labelsOf(site, page.id)) attachLabel(site, copy.id, label.prefix, label.name);
}
