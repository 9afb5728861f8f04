/**
 * confluence-page-label-v1: add labels to a Confluence page found by title in a space, adding only the
 * labels it does not already have. The target page always carries labels before the task (1–2 at
 * level 1, 2 at level 2) and the request sometimes repeats one of them. Level 1 asks for 2 labels and
 * names the space by key. Level 2 asks for 3, names the space by its name, and adds two look-alikes:
 * a page with the same title in another space that already carries one of the requested new labels (an
 * agent that reads the wrong page skips it), and a "Copy of <title>" page in the same space.
 *
 * Reward constants (both levels): one addLabelsToContent mutation spec per missing label L (n of them),
 * so that adding all labels in one call and adding them one call each (as single-label alias tools do)
 * score the same. Each spec takes the successful calls on the page whose body includes L (the first
 * spec also takes calls on the page that add none of the missing labels, e.g. only an existing one, so
 * such a call counts as a duplicate) and checks, with points divided by n: page id 0.15, label L 0.3,
 * L's prefix "global" 0.1, and 0.15 for adding none of the labels the page already has (re-adding one
 * is a no-op on the site, so the state check cannot see it; this check can). R1 totals 0.7. R2 validate
 * 0.15 (the page's labels read before the first add: getPageLabels / getLabelsForContent, or
 * getPageById with include-labels), verify 0.15 (the same read after the last add). Budget 8 (the
 * reference's 5 calls + 3). Default penalties. State: exactly one pageLabels row created per missing
 * label (that page, that name, prefix global); the label-id index table is not part of the diff.
 */

import type { Matcher } from "../../reward/matchers.ts";
import { equals, oneOf } from "../../reward/matchers.ts";
import { arg, type CallInput, type ReadSpec } from "../../reward/spec.ts";
import { expectCreated } from "../../reward/state.ts";
import type { Page } from "../../sandbox/confluence/model.ts";
import { attachLabel, insertPage, labelsOf } from "../../sandbox/confluence/store.ts";
import { PAGE_LABELS } from "../../sandbox/fixtures/pools.ts";
import type { Random } from "../../sandbox/random.ts";
import type { Site } from "../../sandbox/site.ts";
import { call, defineScenario } from "../define-scenario.ts";
import { paraphrase } from "../prompts.ts";
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
  generate({ site, random, level, split }) {
    const page = pickPage(site, random, level);
    const space = site.get("spaces", page.spaceId)!;
    const existing = ensureLabels(site, random, page, level);
    const count = level === 1 ? 2 : 3;
    const repeatOne = random.next() < (level === 1 ? 0.6 : 0.8);
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
  reward({ expected: e }) {
    const isPage = (i: CallInput) => oneOf([e.pageId]).test(i.params.id);
    const withLabels = (i: CallInput) => String(i.params["include-labels"]) === "true";
    const labelReads: ReadSpec[] = [
      { label: "the page's labels", operationIds: ["getPageLabels", "getLabelsForContent"], target: isPage },
      {
        label: "the page with include-labels",
        operationIds: ["getPageById"],
        target: (i) => isPage(i) && withLabels(i),
      },
    ];
    const n = e.missing.length;
    const noMissing = (i: CallInput) => !e.missing.some((name) => addsLabel(name).test(i.body));
    return {
      mutations: e.missing.map((name, k) => ({
        label: `add the label "${name}" to "${e.title}"`,
        operationId: "addLabelsToContent",
        target: (i: CallInput) => isPage(i) && (addsLabel(name).test(i.body) || (k === 0 && noMissing(i))),
        args: [
          arg("page id", "params.id", oneOf([e.pageId], `is ${e.pageId}`), 0.15 / n),
          arg(`label ${name}`, "body", addsLabel(name), 0.3 / n),
          arg(`prefix of ${name}`, "body", isGlobal(name), 0.1 / n),
          arg("no label the page already has", "body", addsNoExisting(e.existing), 0.15 / n),
        ],
      })),
      validate: { points: 0.15, reads: labelReads },
      verify: { points: 0.15, reads: labelReads },
      budget: 8,
      state: e.missing.map((name) =>
        expectCreated(`label "${name}" on "${e.title}"`, "pageLabels", {
          pageId: equals(e.pageId),
          name: equals(name),
          prefix: equals("global"),
        }),
      ),
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
});

/** `"a" and "b"` / `"a", "b" and "c"`. */
function listOf(names: string[]): string {
  const quoted = names.map((n) => `"${n}"`);
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
}

type LabelEntry = { prefix?: unknown; name?: unknown };
const isObject = (v: unknown): v is LabelEntry => typeof v === "object" && v !== null && !Array.isArray(v);

/** The labels of an addLabelsToContent body: an array of {prefix, name} or a single one. */
function entriesOf(body: unknown): LabelEntry[] {
  if (Array.isArray(body)) return body.filter(isObject);
  return isObject(body) ? [body] : [];
}

/** A label name as Confluence stores it (trimmed, lower-cased). */
const nameOf = (e: LabelEntry) => (typeof e.name === "string" ? e.name.trim().toLowerCase() : undefined);

function addsLabel(name: string): Matcher {
  return {
    describe: `includes the label ${JSON.stringify(name)}`,
    test: (body) => entriesOf(body).some((e) => nameOf(e) === name),
  };
}

/** Every entry for the label (at least one) has the prefix global. */
function isGlobal(name: string): Matcher {
  const global = (e: LabelEntry) =>
    typeof e.prefix === "string" && e.prefix.trim().toLowerCase() === "global";
  return {
    describe: `gives ${JSON.stringify(name)} the prefix "global"`,
    test: (body) => {
      const entries = entriesOf(body).filter((e) => nameOf(e) === name);
      return entries.length > 0 && entries.every(global);
    },
  };
}

/** Adds something, and none of the labels the page already has (re-adding one is a silent no-op). */
function addsNoExisting(existing: string[]): Matcher {
  return {
    describe: `adds none of the page's existing labels (${existing.join(", ")})`,
    test: (body) => {
      const names = entriesOf(body).map(nameOf);
      return names.length > 0 && !names.some((n) => n !== undefined && existing.includes(n));
    },
  };
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
  const copy = insertPage(site, { ...fields, title: `Copy of ${page.title}` });
  for (const label of labelsOf(site, page.id)) attachLabel(site, copy.id, label.prefix, label.name);
}
